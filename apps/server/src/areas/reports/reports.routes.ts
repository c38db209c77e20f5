import type { reportRoutes } from '@svc/contract';
import type { Handlers } from '@svc/platform';
import type { Caller } from '../../platform/http/principal.js';
import type { ReportsService } from './reports.service.js';

export function reportsHandlers(service: ReportsService): Handlers<typeof reportRoutes, Caller> {
  return {
    generateReport: async (ctx, { query }) => {
      const r = await service.generateReport(ctx.principal, query);
      ctx.reply.header('content-type', r.type);
      ctx.reply.header('content-disposition', `attachment; filename="${r.file}"`);
      return r.body;
    },
  };
}
