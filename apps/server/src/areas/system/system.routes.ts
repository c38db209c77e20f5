import type { systemRoutes } from '@svc/contract';
import type { Handlers } from '@svc/platform';
import type { Caller } from '../../platform/http/principal.js';
import type { createDocs } from './system.docs.js';
import type { SystemService } from './system.service.js';

export function systemHandlers(
  service: SystemService,
  docs: ReturnType<typeof createDocs>,
  openapi: () => Record<string, unknown>,
): Handlers<typeof systemRoutes, Caller> {
  return {
    getHealth: (ctx) => {
      const answer = (h: Awaited<ReturnType<typeof service.getHealth>>) => {
        if (!h.healthy) ctx.reply.status(503);
        return h.body;
      };
      const h = service.getHealth();
      return h instanceof Promise ? h.then(answer) : answer(h);
    },
    getVersion: () => service.getVersion(),
    getAgentVersion: () => ({ version: service.getVersion().version }),
    getConfig: (ctx) => service.getConfig(ctx.principal),
    getServerInfo: () => service.getServerInfo(),
    getOpenApi: () => openapi(),
    getApiDocs: () => docs.page(),
    getApiDocsAsset: (ctx, { params }) => {
      const file = docs.asset(params.asset);
      ctx.reply.header('content-type', file.type);
      ctx.reply.header('cache-control', 'public, max-age=86400');
      return file.bytes;
    },
  };
}
