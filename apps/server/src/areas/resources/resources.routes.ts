import type { resourceRoutes } from '@svc/contract';
import type { Handlers } from '@svc/platform';
import type { Caller } from '../../platform/http/principal.js';
import { actorOf } from '../audit/index.js';
import type { ResourcesService } from './resources.service.js';

export function resourcesHandlers(service: ResourcesService): Handlers<typeof resourceRoutes, Caller> {
  return {
    listResources: (_ctx, { query }) => service.listResources(query),
    getResourceStats: () => service.getStats(),
    getResource: (_ctx, { params }) => service.getResource(params.id),
    getResourceChildren: (_ctx, { params }) => service.getChildren(params.id),
    getResourceMetrics: (ctx, { params }) => service.getResourceMetrics(ctx.principal, params.id),
    linkResource: (ctx, { params, body }) =>
      service.linkResources(actorOf(ctx, `/api/resources/${params.id}/link`), params.id, body.targetId, body.reason),
    unlinkResource: (ctx, { params, body }) =>
      service.unlinkResources(
        actorOf(ctx, `/api/resources/${params.id}/unlink`),
        params.id,
        body.targetId,
        body.reason,
      ),
    reportResourceMerge: (ctx, { params, body }) =>
      service.reportMerge(
        actorOf(ctx, `/api/resources/${params.id}/report-merge`),
        params.id,
        body.sources,
        body.notes,
      ),
  };
}
