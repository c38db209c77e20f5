import type { expositionRoutes } from '@svc/contract';
import type { Handlers } from '@svc/platform';
import { notFound } from '@svc/platform';
import { collectDefaultMetrics, Registry } from 'prom-client';
import type { Caller } from '../../platform/http/principal.js';
import type { AreaDeps } from '../area.js';
import type { Resource } from '../resources/index.js';
import { renderResources } from './exposition.render.js';

/** Prometheus `/metrics`: this process (prom-client, one registry per app) plus every resource's values. */
export function createExpositionArea(deps: AreaDeps, resources: () => readonly Resource[]) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'svc_' });
  const handlers: Handlers<typeof expositionRoutes, Caller> = {
    getPrometheusMetrics: async (ctx) => {
      if (!deps.config.metricsEndpoint) throw notFound('The metrics endpoint (SVC_METRICS_ENDPOINT=false)');
      ctx.reply.header('content-type', registry.contentType);
      return `${await registry.metrics()}\n${renderResources(resources())}`;
    },
  };
  return { handlers, registry };
}
