import type { chartRoutes } from '@svc/contract';
import type { Handlers } from '@svc/platform';
import type { Caller } from '../../platform/http/principal.js';
import type { createBackupLists } from './charts.backups.js';
import type { ChartsService } from './charts.service.js';

export function chartsHandlers(
  charts: ChartsService,
  lists: ReturnType<typeof createBackupLists>,
): Handlers<typeof chartRoutes, Caller> {
  return {
    getCharts: (ctx, { query }) => charts.getCharts(ctx.principal, query.range),
    getStorageCharts: (ctx, { query }) => charts.getStorageCharts(ctx.principal, query.range),
    listStorage: () => lists.listStorage(),
    listBackups: () => lists.listBackups(),
    listHvBackups: () => lists.listHvBackups(),
    listBakBackups: () => lists.listBakBackups(),
    listUnifiedBackups: () => lists.listUnifiedBackups(),
    listSnapshots: () => lists.listSnapshots(),
  };
}
