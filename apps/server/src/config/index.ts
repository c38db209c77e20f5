import { existsSync, readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { resolve } from 'node:path';
import type { DeploymentType, RateClass } from '@svc/contract';
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

export interface Config {
  port: number;
  host: string;
  /** Absolute path of the data directory. */
  dataDir: string;
  /** `postgres://...` when set; otherwise SQLite at `<dataDir>/svc.db`. */
  databaseUrl: string | undefined;
  logLevel: LogLevel;
  publicUrl: string | undefined;
  bodyLimitBytes: number;
  deploymentType: DeploymentType;
  containerized: boolean;
  devModeSSH: boolean;
  /** Requests allowed per window and client address, per rate-limit class of the contract. */
  rateLimits: Record<RateClass, RateLimit>;
  /** Days audit events are kept; 0 keeps them forever. */
  auditRetentionDays: number;
  /** Serve the Prometheus exposition at GET /metrics (token with monitoring:read). */
  metricsEndpoint: boolean;
  /** CIDRs webhook and relay targets may reach although private, loopback or link-local (SSRF guard). */
  webhookAllowCidrs: string[];
}

export interface RateLimit {
  limit: number;
  windowMs: number;
}

/** Every variable svc reads, with its default: the README's configuration table is written from this. */
export const configVariables = [
  ['SVC_PORT', '7655', 'TCP port of the HTTP server'],
  ['SVC_HOST', '0.0.0.0', 'address to listen on'],
  ['SVC_DATA_DIR', './data', 'data directory (created with mode 0700): database, keys, bootstrap token'],
  ['SVC_DATABASE_URL', '(unset)', 'postgres://user:pass@host:5432/db to use PostgreSQL instead of SQLite'],
  ['LOG_LEVEL', 'info', 'debug, info, warn or error'],
  ['SVC_PUBLIC_URL', '(unset)', 'the URL users reach svc at (links in notifications, secure cookies when https)'],
  ['SVC_BODY_LIMIT_BYTES', '1048576', 'largest accepted request body'],
  ['SVC_DEV_MODE_SSH', 'false', 'development SSH mode flag reported by /api/health'],
  ['SVC_RATE_LIMIT_AUTH', '10/1m', 'login and other credential endpoints, per client address (N/window: 10/1m)'],
  ['SVC_RATE_LIMIT_RECOVERY', '3/10m', 'POST /api/security/recovery, per client address'],
  ['SVC_RATE_LIMIT_EXPORT', '5/5m', 'configuration export and import, per client address'],
  ['SVC_RATE_LIMIT_DEFAULT', '500/1m', 'every other endpoint, per client address'],
  ['SVC_AUDIT_RETENTION_DAYS', '90', 'days audit events are kept (0 keeps them forever)'],
  ['SVC_METRICS_ENDPOINT', 'true', 'serve Prometheus metrics at GET /metrics (needs a token with monitoring:read)'],
  ['SVC_WEBHOOK_ALLOW_CIDRS', '(unset)', 'comma-separated CIDRs webhooks may reach although private or loopback'],
] as const;

export interface ConfigProbe {
  cwd: string;
  exists(path: string): boolean;
  read(path: string): string | undefined;
}

export const systemProbe: ConfigProbe = {
  cwd: process.cwd(),
  exists: existsSync,
  read: (p) => {
    try {
      return readFileSync(p, 'utf8');
    } catch {
      return undefined;
    }
  },
};

const units: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000 };

const rate: VarSpec<RateLimit> = {
  accepts: 'requests per window as N/<number><s|m|h>, such as 10/1m or 3/10m',
  parse: (raw) => {
    const m = /^(\d+)\/(\d+)([smh])$/.exec(raw);
    if (!m || Number(m[1]) < 1 || Number(m[2]) < 1) return undefined;
    return { limit: Number(m[1]), windowMs: Number(m[2]) * (units[m[3] as string] ?? 0) };
  },
};

const wholeNumber: VarSpec<number> = {
  accepts: 'a whole number, 0 or more',
  parse: (raw) => (/^\d+$/.test(raw) ? Number(raw) : undefined),
};

const cidrList: VarSpec<string[]> = {
  accepts: 'comma-separated IPv4/IPv6 addresses or CIDRs, such as 127.0.0.1/32,10.0.0.0/8',
  parse: (raw) => {
    const items = raw
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '');
    const ok = items.every((s) => {
      const [ip, bits, extra] = s.split('/');
      if (extra !== undefined || !ip || isIP(ip) === 0) return false;
      const max = isIP(ip) === 4 ? 32 : 128;
      return bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= max);
    });
    return ok ? items : undefined;
  },
};

/** Reads and validates the environment once; throws ConfigError naming the first bad variable. */
export function loadConfig(env: Env = process.env, probe: ConfigProbe = systemProbe): Config {
  const containerized = detectContainer(env, probe);
  return {
    port: readVar(env, 'SVC_PORT', port, 7655),
    host: readVar(env, 'SVC_HOST', host, '0.0.0.0'),
    dataDir: resolve(probe.cwd, readVar(env, 'SVC_DATA_DIR', anyText, './data')),
    databaseUrl: readVar<string | undefined>(env, 'SVC_DATABASE_URL', url(['postgres:', 'postgresql:']), undefined),
    logLevel: readVar(env, 'LOG_LEVEL', oneOf(['debug', 'info', 'warn', 'error'] as const), 'info'),
    publicUrl: readVar<string | undefined>(env, 'SVC_PUBLIC_URL', url(['http:', 'https:']), undefined),
    bodyLimitBytes: readVar(env, 'SVC_BODY_LIMIT_BYTES', positiveInt('bytes'), 1024 * 1024),
    deploymentType: detectDeployment(env, probe, containerized),
    containerized,
    devModeSSH: readVar(env, 'SVC_DEV_MODE_SSH', boolean, false),
    rateLimits: {
      auth: readVar(env, 'SVC_RATE_LIMIT_AUTH', rate, { limit: 10, windowMs: 60_000 }),
      recovery: readVar(env, 'SVC_RATE_LIMIT_RECOVERY', rate, { limit: 3, windowMs: 600_000 }),
      export: readVar(env, 'SVC_RATE_LIMIT_EXPORT', rate, { limit: 5, windowMs: 300_000 }),
      default: readVar(env, 'SVC_RATE_LIMIT_DEFAULT', rate, { limit: 500, windowMs: 60_000 }),
    },
    auditRetentionDays: readVar(env, 'SVC_AUDIT_RETENTION_DAYS', wholeNumber, 90),
    metricsEndpoint: readVar(env, 'SVC_METRICS_ENDPOINT', boolean, true),
    webhookAllowCidrs: readVar(env, 'SVC_WEBHOOK_ALLOW_CIDRS', cidrList, []),
  };
}

function detectContainer(env: Env, probe: ConfigProbe): boolean {
  if (env.container) return true;
  if (probe.exists('/.dockerenv')) return true;
  const cgroup = probe.read('/proc/1/cgroup') ?? '';
  return /docker|containerd|kubepods|libpod/.test(cgroup);
}

/** How svc was installed, so updates and restarts can say what applies (systemd sets INVOCATION_ID). */
function detectDeployment(env: Env, probe: ConfigProbe, containerized: boolean): DeploymentType {
  if (containerized) return 'docker';
  if (env.INVOCATION_ID) return 'systemd';
  if (env.npm_lifecycle_event || probe.exists(resolve(probe.cwd, '.git'))) return 'development';
  return 'binary';
}
