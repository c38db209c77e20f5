import { isIP } from 'node:net';
import type { Agent } from 'undici';
import { undici } from '../../platform/http/undici.js';
import { exchange } from './notifications.http.exchange.js';
import { SsrfError, type TargetGuard } from './notifications.ssrf.js';
import type { BuiltRequest } from './webhook.request.js';

export interface HttpOutcome {
  /** 0 when no answer arrived. */
  status: number;
  body: string;
  retryAfterMs?: number;
  error?: string;
  /** The request never reached a server answer (refused, reset, DNS, timeout): worth retrying. */
  network: boolean;
  /** Refused by the SSRF guard: never retried. */
  refused?: boolean;
}

/** Seconds or an HTTP date, as RFC 9110 allows; undefined when absent or unreadable. */
export function parseRetryAfter(v: string | string[] | undefined, now: number): number | undefined {
  const s = Array.isArray(v) ? v[0] : v;
  if (!s) return undefined;
  if (/^\d+$/.test(s.trim())) return Number(s.trim()) * 1000;
  const at = Date.parse(s);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** Where a URL goes, parsed once per distinct URL: undici gets origin and path and parses nothing. */
interface Target {
  origin: string;
  path: string;
  /** Set when the URL names a literal address the guard refuses. */
  refused?: string;
}
const TARGETS_MAX = 1000;

/** Posts built requests through a pooled agent whose DNS answers pass the SSRF guard at connect time. */
export function createHttpSender(guard: TargetGuard, opts: { timeoutMs: number; now: () => number }) {
  // Made on the first send: most of the time there is nothing to deliver.
  let pool: Agent | undefined;
  const agent = (): Agent => {
    pool ??= new (undici().Agent)({
      connect: { lookup: guard.lookup, timeout: 10_000 },
      connections: 128,
      keepAliveTimeout: 10_000,
      headersTimeout: opts.timeoutMs,
      bodyTimeout: opts.timeoutMs,
    });
    return pool;
  };

  const targets = new Map<string, Target>();
  function targetOf(url: string): Target {
    const hit = targets.get(url);
    if (hit) return hit;
    const u = new URL(url);
    const host = u.hostname.replace(/^\[|\]$/g, '');
    const t: Target = { origin: u.origin, path: `${u.pathname}${u.search}` };
    // Literal addresses skip DNS, so the connect-time lookup never sees them: check them here.
    if (isIP(host) && !guard.allowedAddress(host))
      t.refused = new SsrfError(`address ${host} is refused (loopback, private, link-local or metadata)`).message;
    if (targets.size >= TARGETS_MAX) targets.clear();
    targets.set(url, t);
    return t;
  }

  async function send(req: BuiltRequest, signal?: AbortSignal): Promise<HttpOutcome> {
    const t = targetOf(req.url);
    if (t.refused) return { status: 0, body: '', network: false, refused: true, error: t.refused };
    try {
      const res = await exchange(
        agent(),
        { origin: t.origin, path: t.path, method: req.method, headers: req.headers, body: req.body },
        signal,
      );
      return {
        status: res.status,
        body: res.body,
        network: false,
        retryAfterMs: parseRetryAfter(res.retryAfter, opts.now()),
      };
    } catch (err) {
      const e = err as Error & { code?: string; cause?: Error };
      const refused = e instanceof SsrfError || e.cause instanceof SsrfError;
      return { status: 0, body: '', network: !refused, refused, error: `${e.code ? `${e.code}: ` : ''}${e.message}` };
    }
  }

  return { send, close: async () => pool?.close() };
}

export type HttpSender = ReturnType<typeof createHttpSender>;
