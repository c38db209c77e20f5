import { EventEmitter } from 'node:events';
import { isIP } from 'node:net';
import type { Readable } from 'node:stream';
import type { Agent } from 'undici';
import { undici } from '../../platform/http/undici.js';
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

const BODY_CAP = 4096;

/** Seconds or an HTTP date, as RFC 9110 allows; undefined when absent or unreadable. */
export function parseRetryAfter(v: string | string[] | undefined, now: number): number | undefined {
  const s = Array.isArray(v) ? v[0] : v;
  if (!s) return undefined;
  if (/^\d+$/.test(s.trim())) return Number(s.trim()) * 1000;
  const at = Date.parse(s);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

// Events, not `for await`: an async iterator per response cost more than reading the (mostly empty) body.
function readCapped(body: Readable): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    let size = 0;
    body.on('data', (chunk: Buffer) => {
      if (size < BODY_CAP) parts.push(chunk);
      size += chunk.length;
    });
    body.on('end', () => resolve(size === 0 ? '' : Buffer.concat(parts).toString('utf8').slice(0, BODY_CAP)));
    body.on('error', reject);
  });
}

/** Where a URL goes, parsed once per distinct URL: undici gets origin and path and parses nothing. */
interface Target {
  origin: string;
  path: string;
  /** Set when the URL names a literal address the guard refuses. */
  refused?: string;
}
const TARGETS_MAX = 1000;

/**
 * One abort signal shared by a window of concurrent requests: undici adds a listener per request, and an
 * AbortSignal's listener list grows costlier with each one. An emitter standing for the signal does not.
 */
class AbortRelay extends EventEmitter {
  constructor(private readonly signal: AbortSignal) {
    super();
    this.setMaxListeners(0);
    signal.addEventListener('abort', () => this.emit('abort'), { once: true });
  }
  get aborted(): boolean {
    return this.signal.aborted;
  }
  get reason(): unknown {
    return this.signal.reason;
  }
}
const relays = new WeakMap<AbortSignal, AbortRelay>();
function relayOf(signal: AbortSignal): AbortRelay {
  let r = relays.get(signal);
  if (!r) {
    r = new AbortRelay(signal);
    relays.set(signal, r);
  }
  return r;
}

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
      const res = await agent().request({
        origin: t.origin,
        path: t.path,
        method: req.method as 'POST',
        headers: req.headers,
        body: req.body,
        signal: signal ? relayOf(signal) : undefined,
      });
      const body = await readCapped(res.body);
      return {
        status: res.statusCode,
        body,
        network: false,
        retryAfterMs: parseRetryAfter(res.headers['retry-after'], opts.now()),
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
