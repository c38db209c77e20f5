import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { DeploymentType } from '@svc/contract';
import { anyText, boolean, type Env, host, type LogLevel, oneOf, port, positiveInt, readVar, url } from '@svc/platform';

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
