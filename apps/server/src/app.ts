import { join } from 'node:path';
import { type Feature, monitoringOpenApi, routes } from '@svc/contract';
import {
  bindRoutes,
  type Clock,
  genRequestId,
  installErrorHandling,
  type Logger,
  lazyChildLogger,
  systemClock,
} from '@svc/platform';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify';
import { createAreas } from './areas/index.js';
import { EMBEDDED_LICENSE_PUBLIC_KEY } from './areas/license/index.js';
import { collectorFactories, PollManager, type PollResult, type PollSink } from './collectors/index.js';
import type { Config } from './config/index.js';
import type { BuildInfo } from './platform/build-info.js';
import { createSecretBox, loadOrCreateKeyFile } from './platform/crypto/index.js';
import type { Db } from './platform/db/index.js';
import { createGate } from './platform/http/gate.js';
import type { Authenticator } from './platform/http/principal.js';
import { createRateLimiter } from './platform/http/rate-limit.js';
import { LoopScheduler, systemTimers, type Timers } from './platform/jobs/index.js';
import { createRealtime, type RealtimeOptions } from './realtime/index.js';
import { LiveState } from './state/index.js';

export interface AppDeps {
  config: Config;
  db: Db;
  log: Logger;
  build: BuildInfo;
  clock?: Clock;
  /** The live resource graph the collectors feed; a fresh empty one when not given. */
  state?: LiveState;
  /** The poll scheduler; tests pass one on fake timers. */
  polls?: PollManager;
  /** Timers for the poll scheduler and background jobs; tests pass fake ones. */
  timers?: Timers;
  /** Overrides who is calling (tests); by default sessions, API tokens and recovery mode decide. */
  authenticate?: Authenticator;
  /** Overrides the licence check (tests); by default the active licence decides. */
  hasFeature?: (feature: Feature) => boolean;
  /** Check every JSON response against its contract schema (tests turn this on). */
  validateResponses?: boolean;
  /** PEM of the licence issuer's Ed25519 public key; tests pass their own. Default: the embedded key. */
  licensePublicKey?: string;
  /** Restarts svc through its service manager (main.ts sets it under systemd). */
  restart?: () => void;
  /** Live-push tuning (tests pass fake timers): coalescing window, buffer bounds, heartbeat. */
  realtime?: RealtimeOptions;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The running parts behind the routes, for the composition root and tests. */
    svc: { state: LiveState; polls: PollManager; jobs: LoopScheduler };
  }
}

/** Builds the HTTP app without listening: every route test calls this and uses `inject`. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    // Typed as Fastify's base logger so the app keeps the default instance type.
    loggerInstance: deps.log as FastifyBaseLogger,
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: deps.config.bodyLimitBytes,
    genReqId: genRequestId,
    childLoggerFactory: (logger, bindings, opts) =>
      lazyChildLogger(logger as Logger, bindings, opts) as unknown as FastifyBaseLogger,
    routerOptions: { ignoreTrailingSlash: false },
  });

  // One line per finished request at debug; failures are louder so they show at the default level.
  // Callback-style hooks: on every request, a promise per hook is measurable overhead.
  app.addHook('onResponse', (req, reply, done) => {
    const level = reply.statusCode >= 500 ? 'error' : reply.statusCode >= 400 ? 'info' : 'debug';
    if (deps.log.isLevelEnabled(level)) {
      req.log[level](
        { method: req.method, url: req.url.split('?')[0], status: reply.statusCode, ms: Math.round(reply.elapsedTime) },
        'request',
      );
    }
    done();
  });

  installErrorHandling(app, { routes: Object.values(routes) });

  // Built on first request: generating JSON Schema for every route costs start-up time and memory.
  let openapiDoc: Record<string, unknown> | undefined;
  const openapi = () => {
    openapiDoc ??= monitoringOpenApi(routes, deps.build.version);
    return openapiDoc;
  };
  const clock = deps.clock ?? systemClock;
  const state = deps.state ?? new LiveState({ clock });
  const realtime = createRealtime({ state, clock, log: deps.log, options: deps.realtime });
  // Poll results go to the live state, then to whoever else listens (the metrics recorder).
  const pollListeners: Array<(instanceId: string, result: PollResult) => void> = [];
  const sink: PollSink = {
    applyPoll(id, result) {
      state.applyPoll(id, result);
      for (const listen of pollListeners) listen(id, result);
    },
    applyFailure: (id, kind, error, failures) => state.applyFailure(id, kind, error, failures),
    removeInstance: (id) => state.removeInstance(id),
  };
  const timers = deps.timers ?? systemTimers;
  const polls = deps.polls ?? new PollManager({ clock, timers, factories: collectorFactories, sink, logger: deps.log });
  app.addHook('onClose', () => polls.stop());
  const areas = createAreas({
    state,
    polls,
    timers,
    config: deps.config,
    db: deps.db,
    log: deps.log,
    clock,
    build: deps.build,
    openapi,
    secrets: createSecretBox(loadOrCreateKeyFile(join(deps.config.dataDir, '.encryption.key'))),
    licensePublicKey: deps.licensePublicKey ?? EMBEDDED_LICENSE_PUBLIC_KEY,
    restart: deps.restart,
    hasFeature: deps.hasFeature,
    broadcast: (type, data) => realtime.broadcast(type, data),
  });
  app.addHook('onClose', () => areas.close());
  await areas.start();
  pollListeners.push(areas.metrics.recordPoll);
  // Background work of the areas (rollups, alert ticks) on one scheduler, stopped with the app.
  const jobs = new LoopScheduler({
    clock,
    timers,
    concurrency: 2,
    onError: (key, err) => deps.log.error({ job: key, err }, 'background job failed'),
  });
  for (const job of areas.jobs) {
    jobs.upsert(
      job.name,
      {
        timeoutMs: 5 * 60_000,
        run: async () => {
          await job.run();
        },
        nextDelay: () => job.intervalMs,
      },
      job.intervalMs,
    );
  }
  app.addHook('onClose', () => jobs.stop());
  app.decorate('svc', { state, polls, jobs });
  // Recovery mode must never be silent: every response, errors and 404s included, carries this header.
  app.addHook('onSend', (_req, reply, payload, done) => {
    if (areas.authDisabled()) reply.header('x-svc-auth-disabled', 'true');
    done(null, payload);
  });
  const gate = createGate({
    authenticate: deps.authenticate ?? areas.authenticate,
    hasFeature: deps.hasFeature ?? areas.hasFeature,
    rateLimiter: createRateLimiter(deps.config.rateLimits, clock),
  });
  bindRoutes(app, { routes, handlers: areas.handlers, gate, validateResponses: deps.validateResponses });
  // /ws and /socket.io/ are `upgrade` routes: bound here, behind the same gate.
  await realtime.register(app, gate);
  return app;
}
