import type { Clock } from '@svc/platform';
import type { Dispatcher } from 'undici';
import type { Timers } from '../platform/jobs/index.js';
import { ApiClient, type ApiCredentials, type AuthStyle } from './api.client.js';
import { FailoverSender } from './api.failover.js';
import { createDispatcher, type TlsOptions } from './api.tls.js';
import type { Endpoint } from './api.transport.js';

/** Where and how to reach one configured instance (the node record minus presentation fields). */
export interface ConnectionConfig {
  /** `https://host:port`, `host:port` or `host` (the kind's default port is added). */
  host: string;
  credentials: ApiCredentials;
  verifyTls?: boolean;
  fingerprint?: string;
  timeoutMs?: number;
  /** Extra cluster members to fail over to (hv). */
  endpoints?: Array<{ name: string; host: string; fingerprint?: string }>;
}

export interface ClientDeps {
  clock: Clock;
  timers: Timers;
  /** Override for tests and benchmarks; default builds an undici Agent per endpoint. */
  dispatcherFor?: (tls: TlsOptions) => Dispatcher;
}

export interface KindClient {
  api: ApiClient;
  sender: FailoverSender;
  close(): Promise<void>;
}

/** `host` → `https://host:port`; keeps an explicit scheme and port. */
export function normalizeBaseUrl(host: string, defaultPort: number): string {
  const withScheme = /^[a-z]+:\/\//i.test(host) ? host : `https://${host}`;
  const url = new URL(withScheme);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new RangeError('host must be http(s)');
  if (!url.port) url.port = String(defaultPort);
  return `${url.protocol}//${url.host}`;
}

export function createKindClient(
  style: AuthStyle,
  defaultPort: number,
  cfg: ConnectionConfig,
  deps: ClientDeps,
): KindClient {
  const dispatchers: Dispatcher[] = [];
  const endpointFor = (name: string, host: string, fingerprint?: string): Endpoint => {
    const tls: TlsOptions = { verify: cfg.verifyTls !== false, ...(fingerprint ? { fingerprint } : {}) };
    const dispatcher = deps.dispatcherFor ? deps.dispatcherFor(tls) : createDispatcher(tls);
    if (!deps.dispatcherFor) dispatchers.push(dispatcher);
    return { name, baseUrl: normalizeBaseUrl(host, defaultPort), dispatcher };
  };
  const primary = endpointFor('primary', cfg.host, cfg.fingerprint);
  const members = (cfg.endpoints ?? [])
    .map((e) => endpointFor(e.name, e.host, e.fingerprint))
    .filter((e) => e.baseUrl !== primary.baseUrl);
  const sender = new FailoverSender([primary, ...members], {
    clock: deps.clock,
    timers: deps.timers,
    timeoutMs: cfg.timeoutMs ?? 30_000,
  });
  const api = new ApiClient(sender, style, cfg.credentials, { clock: deps.clock });
  return {
    api,
    sender,
    close: async () => {
      await Promise.allSettled(dispatchers.map((d) => d.close()));
    },
  };
}
