import type { expositionRoutes } from '@svc/contract';
import type { Handlers } from '@svc/platform';
import { notFound } from '@svc/platform';
import type { Registry } from 'prom-client';
import type { Caller } from '../../platform/http/principal.js';
import type { AreaDeps } from '../area.js';
import type { Resource } from '../resources/index.js';
import { renderResources } from './exposition.render.js';

/** Prometheus `/metrics`: this process (prom-client, one registry per app) plus every resource's values. */
export function createExpositionArea(deps: AreaDeps, resources: () => readonly Resource[]) {
  // prom-client loads on the first scrape: an installation nobody scrapes never pays for it.
  let registry: Promise<Registry> | undefined;
  const getRegistry = () => {
    registry ??= import('prom-client').then(({ collectDefaultMetrics, Registry }) => {
      const r = new Registry();
      collectDefaultMetrics({ register: r, prefix: 'svc_' });
      return r;
    });
    return registry;
  };
  const handlers: Handlers<typeof expositionRoutes, Caller> = {
    getPrometheusMetrics: async (ctx) => {
      if (!deps.config.metricsEndpoint) throw notFound('The metrics endpoint (SVC_METRICS_ENDPOINT=false)');
      const r = await getRegistry();
      ctx.reply.header('content-type', r.contentType);
      return `${await r.metrics()}\n${renderResources(resources())}`;
    },
  };
  return { handlers, registry: getRegistry };
}
