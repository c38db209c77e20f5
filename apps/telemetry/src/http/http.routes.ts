import type { Handlers } from '@svc/platform';
import type { TelemetryRoutes } from '../contract.js';
import type { DashboardAssets } from '../dashboard/dashboard.assets.js';
import type { SqlRunner } from '../db/index.js';
import type { IngestService } from '../ingest/ingest.service.js';
import type { StatsService } from '../stats/stats.service.js';

export interface HandlerDeps {
  ingest: IngestService;
  stats: StatsService;
  runner: SqlRunner;
  openapi: Record<string, unknown>;
  dashboard: DashboardAssets;
}

/** Adapters only: validated input in, one service call, result out. */
export function telemetryHandlers(deps: HandlerDeps): Handlers<TelemetryRoutes, undefined> {
  const { ingest, stats } = deps;
  return {
    postReport: async (ctx, { body }) => {
      const r = await ingest.recordReport(body);
      if (!r.created) ctx.reply.status(200);
      return r.body;
    },
    postStatusUpdate: (_ctx, { body }) => ingest.recordStatusUpdate(body),
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
