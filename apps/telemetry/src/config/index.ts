import { resolve } from 'node:path';
import {
  anyText,
  boolean,
  type Env,
  host,
  type LogLevel,
  oneOf,
  port,
  positiveInt,
  readVar,
  url,
  type VarSpec,
} from '@svc/platform';

export interface TelemetryConfig {
  port: number;
  host: string;
  /** Absolute path of the data directory (SQLite file `telemetry.db`). */
  dataDir: string;
  /** `postgres://...` when set; otherwise SQLite under the data directory. */
  databaseUrl: string | undefined;
  logLevel: LogLevel;
  /** Reports and updates per client IP per minute; 0 turns the limit off. */
  rateLimitPerMinute: number;
  /** Trust X-Forwarded-For from a reverse proxy; otherwise every proxied client shares the proxy's limit. */
  trustProxy: boolean;
  /** Records still in progress after this many hours are marked `unknown`. */
  staleAfterHours: number;
  /** Records older than this many days are deleted; 0 keeps them forever. */
  retentionDays: number;
  /** How often the reaper (stale + retention) runs, in seconds. */
  reaperIntervalSeconds: number;
  /** SQLite only: fsync every commit (writes are group-committed, so this stays cheap). */
  durableWrites: boolean;
}

const wholeNumber = (what: string): VarSpec<number> => ({
  accepts: `a whole number, 0 or more (${what})`,
  parse: (raw) => (/^\d+$/.test(raw) ? Number(raw) : undefined),
});

/** Every variable svc-telemetry reads, with its default: docs/telemetry.md's table is written from this. */
export const configVariables = [
  ['SVC_TELEMETRY_PORT', '7656', 'TCP port of the HTTP server'],
  ['SVC_TELEMETRY_HOST', '0.0.0.0', 'address to listen on'],
  ['SVC_TELEMETRY_DATA_DIR', './data', 'data directory; the SQLite database is telemetry.db inside it'],
  ['SVC_TELEMETRY_DATABASE_URL', '(unset)', 'postgres://user:pass@host:5432/db to use PostgreSQL instead of SQLite'],
  ['SVC_TELEMETRY_RATE_LIMIT', '60', 'reports + status updates per client IP per minute (0 = no limit)'],
  ['SVC_TELEMETRY_TRUST_PROXY', 'false', 'take the client IP from X-Forwarded-For (only behind your own proxy)'],
  ['SVC_TELEMETRY_STALE_HOURS', '24', 'records in progress longer than this are marked unknown'],
  ['SVC_TELEMETRY_RETENTION_DAYS', '365', 'records older than this are deleted (0 = keep forever)'],
  ['SVC_TELEMETRY_REAPER_INTERVAL', '600', 'seconds between runs of the stale/retention job'],
  ['SVC_TELEMETRY_DURABLE_WRITES', 'true', 'SQLite: fsync the ingest journal before answering'],
  ['LOG_LEVEL', 'info', 'debug, info, warn or error'],
] as const;

/** Reads and validates the environment once; throws ConfigError naming the first bad variable. */
export function loadConfig(env: Env = process.env, cwd: string = process.cwd()): TelemetryConfig {
  return {
    port: readVar(env, 'SVC_TELEMETRY_PORT', port, 7656),
    host: readVar(env, 'SVC_TELEMETRY_HOST', host, '0.0.0.0'),
    dataDir: resolve(cwd, readVar(env, 'SVC_TELEMETRY_DATA_DIR', anyText, './data')),
    databaseUrl: readVar<string | undefined>(
      env,
      'SVC_TELEMETRY_DATABASE_URL',
      url(['postgres:', 'postgresql:']),
      undefined,
    ),
    logLevel: readVar(env, 'LOG_LEVEL', oneOf(['debug', 'info', 'warn', 'error'] as const), 'info'),
    rateLimitPerMinute: readVar(env, 'SVC_TELEMETRY_RATE_LIMIT', wholeNumber('requests per minute'), 60),
    trustProxy: readVar(env, 'SVC_TELEMETRY_TRUST_PROXY', boolean, false),
    staleAfterHours: readVar(env, 'SVC_TELEMETRY_STALE_HOURS', positiveInt('hours'), 24),
    retentionDays: readVar(env, 'SVC_TELEMETRY_RETENTION_DAYS', wholeNumber('days'), 365),
    reaperIntervalSeconds: readVar(env, 'SVC_TELEMETRY_REAPER_INTERVAL', positiveInt('seconds'), 600),
    durableWrites: readVar(env, 'SVC_TELEMETRY_DURABLE_WRITES', boolean, true),
  };
}
