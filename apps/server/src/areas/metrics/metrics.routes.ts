import type { metricsRoutes } from '@svc/contract';
import type { Handlers } from '@svc/platform';
import type { Caller } from '../../platform/http/principal.js';
import type { MetricsService } from './metrics.service.js';

export function metricsHandlers(service: MetricsService): Handlers<typeof metricsRoutes, Caller> {
  return {
    getMetricsStoreStats: (ctx) => service.getStats(ctx.principal),
    getMetricsHistory: (ctx, { query }) => service.getHistory(ctx.principal, query),
  };
}
