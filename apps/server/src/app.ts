import { randomUUID } from 'node:crypto';
import fastifyCookie from '@fastify/cookie';
import { type Feature, monitoringOpenApi, routes } from '@svc/contract';
import { bindRoutes, type Clock, installErrorHandling, type Logger, systemClock } from '@svc/platform';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify';
import { createAreas } from './areas/index.js';
import type { Config } from './config/index.js';
import type { BuildInfo } from './platform/build-info.js';
import type { Db } from './platform/db/index.js';
import { createGate } from './platform/http/gate.js';
import { type Authenticator, nobody } from './platform/http/principal.js';

export interface AppDeps {
  config: Config;
  db: Db;
  log: Logger;
  build: BuildInfo;
  clock?: Clock;
  /** Who is calling; until access control is set up nobody is, so only public routes answer. */
  authenticate?: Authenticator;
  hasFeature?: (feature: Feature) => boolean;
  /** Check every JSON response against its contract schema (tests turn this on). */
  validateResponses?: boolean;
}

const SAFE_REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** Builds the HTTP app without listening: every route test calls this and uses `inject`. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    // Typed as Fastify's base logger so the app keeps the default instance type.
    loggerInstance: deps.log as FastifyBaseLogger,
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: deps.config.bodyLimitBytes,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && SAFE_REQUEST_ID.test(given) ? given : randomUUID();
    },
    routerOptions: { ignoreTrailingSlash: false },
  });

  // One line per finished request at debug; failures are louder so they show at the default level.
  app.addHook('onResponse', async (req, reply) => {
    const level = reply.statusCode >= 500 ? 'error' : reply.statusCode >= 400 ? 'info' : 'debug';
    if (!deps.log.isLevelEnabled(level)) return;
    req.log[level](
      { method: req.method, url: req.url.split('?')[0], status: reply.statusCode, ms: Math.round(reply.elapsedTime) },
      'request',
    );
  });

  await app.register(fastifyCookie);
  installErrorHandling(app, { routes: Object.values(routes) });

  const openapi = monitoringOpenApi(routes, deps.build.version);
  const areas = createAreas({
    config: deps.config,
    db: deps.db,
    log: deps.log,
    clock: deps.clock ?? systemClock,
    build: deps.build,
    openapi,
  });
  bindRoutes(app, {
    routes,
    handlers: areas.handlers,
    gate: createGate({ authenticate: deps.authenticate ?? nobody, hasFeature: deps.hasFeature ?? (() => false) }),
    validateResponses: deps.validateResponses,
  });
  return app;
}
