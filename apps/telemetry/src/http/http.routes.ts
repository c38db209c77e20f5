import type { Handlers } from '@svc/platform';
import type { TelemetryRoutes } from '../contract.js';
import type { DashboardAssets } from '../dashboard/dashboard.assets.js';
import type { SqlRunner } from '../db/index.js';
import type { StatsService } from '../stats/stats.service.js';

export interface HandlerDeps {
  stats: StatsService;
  runner: SqlRunner;
  openapi: Record<string, unknown>;
  dashboard: DashboardAssets;
}

/** The routes Fastify binds; the two ingest routes are served by the IngestEndpoint (http.ingest.ts). */
export type FastifyRoutes = Omit<TelemetryRoutes, 'postReport' | 'postStatusUpdate'>;

/** Adapters only: validated input in, one service call, result out. */
export function telemetryHandlers(deps: HandlerDeps): Handlers<FastifyRoutes, undefined> {
  const { stats } = deps;
  return {
    getSummary: (_ctx, { query }) => stats.getSummary(query),
    getApps: (_ctx, { query }) => stats.getApps(query),
    getOs: (_ctx, { query }) => stats.getOs(query),
    getTypes: (_ctx, { query }) => stats.getTypes(query),
    getDays: (_ctx, { query }) => stats.getDays(query),
    getErrors: (_ctx, { query }) => stats.getErrors(query),
    listRecords: (_ctx, { query }) => stats.listRecords(query),
    getHealth: async (ctx) => {
      const ok = await deps.runner.all('select 1 as one').then(
        () => true,
        () => false,
      );
      if (!ok) ctx.reply.status(503);
      return { status: ok ? 'ok' : 'degraded', database: deps.runner.dialect };
    },
    getOpenApi: () => deps.openapi,
    getDashboard: (ctx) => {
      ctx.reply.header('cache-control', 'no-cache');
      return deps.dashboard.html;
    },
    getDashboardScript: () => deps.dashboard.script,
    getDashboardStyle: () => deps.dashboard.style,
  };
}
