import { bindRoutes, type Clock, genRequestId, installErrorHandling, type Logger, systemClock } from '@svc/platform';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify';
import type { TelemetryConfig } from './config/index.js';
import { telemetryRoutes } from './contract.js';
import { dashboardAssets } from './dashboard/dashboard.assets.js';
import type { SqlRunner } from './db/index.js';
import { installLenientJson } from './http/http.body.js';
import { frontDoor } from './http/http.front-door.js';
import { IngestEndpoint, type IngestRoute } from './http/http.ingest.js';
import { telemetryOpenApi } from './http/http.openapi.js';
import { FixedWindowLimiter } from './http/http.rate-limit.js';
import { telemetryHandlers } from './http/http.routes.js';
import type { IngestWriter } from './ingest/ingest.commands.js';
import { createIngestService } from './ingest/ingest.service.js';
import { createStatsService } from './stats/stats.service.js';
import { createStatsStore } from './stats/stats.store.js';

export interface AppDeps {
  config: TelemetryConfig;
  runner: SqlRunner;
  writer: IngestWriter;
  log: Logger;
  clock?: Clock;
  version?: string;
  /** Check every JSON response against its schema (tests turn this on). */
  validateResponses?: boolean;
}

/** Largest accepted report or update; real ones are under 1 KiB, error texts are capped by the client. */
export const BODY_LIMIT = 16 * 1024;

/**
 * Builds the HTTP app without listening: every route test calls this and uses `inject`. The two ingest
 * routes are served by the IngestEndpoint: on a listening server straight from node:http (the front door),
 * under `inject` through a Fastify route that hands the raw request over, so tests exercise the same code.
 */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const clock = deps.clock ?? systemClock;
  const ingest = createIngestService({ writer: deps.writer, clock, log: deps.log });
  const endpoint = new IngestEndpoint({
    ingest,
    log: deps.log,
    bodyLimit: BODY_LIMIT,
    limiter:
      deps.config.rateLimitPerMinute > 0 ? new FixedWindowLimiter(deps.config.rateLimitPerMinute, clock) : undefined,
    trustProxy: deps.config.trustProxy,
    validateResponses: deps.validateResponses,
  });
  const app = Fastify({
    serverFactory: frontDoor(endpoint),
    loggerInstance: deps.log as FastifyBaseLogger,
    // Request logging would write client addresses; only method, path, status and time are logged below.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: BODY_LIMIT,
    trustProxy: deps.config.trustProxy,
    genReqId: genRequestId,
  });

  app.addHook('onResponse', async (req, reply) => {
    const level = reply.statusCode >= 500 ? 'error' : reply.statusCode >= 400 ? 'info' : 'debug';
    if (!deps.log.isLevelEnabled(level)) return;
    req.log[level](
      { method: req.method, url: req.url.split('?')[0], status: reply.statusCode, ms: Math.round(reply.elapsedTime) },
      'request',
    );
  });

  installErrorHandling(app, { routes: Object.values(telemetryRoutes) });
  // After the platform's handling, which installs its own strict JSON parser that this one replaces.
  installLenientJson(app);
  installCors(app);
  routeIngest(app, endpoint);

  const stats = createStatsService(createStatsStore(readsAfterWrites(deps.runner, deps.writer)));
  const { postReport: _r, postStatusUpdate: _u, ...fastifyRoutes } = telemetryRoutes;
  bindRoutes(app, {
    routes: fastifyRoutes,
    handlers: telemetryHandlers({
      stats,
      runner: deps.runner,
      openapi: telemetryOpenApi(deps.version ?? '0.0.0'),
      dashboard: dashboardAssets,
    }),
    gate: async () => undefined,
    validateResponses: deps.validateResponses,
  });
  return app;
}

/** Statistics and records read everything already answered, even writes the writer has not committed yet. */
function readsAfterWrites(runner: SqlRunner, writer: IngestWriter): SqlRunner {
  return {
    ...runner,
    all: async (sql, params) => {
      await writer.visible();
      return runner.all(sql, params);
    },
  };
}

/** The statistics are public and read-only: any origin may read them (the dashboard can live elsewhere). */
function installCors(app: FastifyInstance): void {
  app.addHook('onRequest', async (req, reply) => {
    if (req.url.startsWith('/api/')) {
      reply.header('access-control-allow-origin', '*');
      reply.header('access-control-expose-headers', 'x-request-id');
    }
  });
  app.options('/api/*', async (_req, reply) => {
    reply
      .header('access-control-allow-methods', 'GET, HEAD, OPTIONS')
      .header('access-control-allow-headers', 'Content-Type')
      .header('access-control-max-age', '86400')
      .code(204)
      .send();
  });
}

/**
 * The ingest routes as Fastify sees them: for requests that reach Fastify anyway (`inject`), the raw request
 * is handed to the endpoint before Fastify reads the body. Stopping marks the endpoint so its last answers
 * close their connections (Fastify only closes the idle ones, and a keep-alive client would hold the server).
 */
function routeIngest(app: FastifyInstance, endpoint: IngestEndpoint): void {
  const routes: [IngestRoute, string][] = [
    ['report', telemetryRoutes.postReport.path],
    ['update', telemetryRoutes.postStatusUpdate.path],
  ];
  for (const [route, url] of routes) {
    app.route({
      method: 'POST',
      url,
      onRequest: (req, reply, _done) => {
        reply.hijack();
        endpoint.serve(route, req.raw, reply.raw);
      },
      handler: async () => undefined,
    });
  }
  app.addHook('preClose', async () => {
    endpoint.closing = true;
  });
}
