import { isIP } from 'node:net';
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

async function readCapped(body: AsyncIterable<Buffer>): Promise<string> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    if (size < BODY_CAP) parts.push(chunk);
    size += chunk.length;
  }
  return Buffer.concat(parts).toString('utf8').slice(0, BODY_CAP);
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

  async function send(req: BuiltRequest, signal?: AbortSignal): Promise<HttpOutcome> {
    const host = new URL(req.url).hostname.replace(/^\[|\]$/g, '');
    // Literal addresses skip DNS, so the connect-time lookup never sees them: check them here.
    if (isIP(host) && !guard.allowedAddress(host)) {
      return {
        status: 0,
        body: '',
        network: false,
        refused: true,
        error: new SsrfError(`address ${host} is refused (loopback, private, link-local or metadata)`).message,
      };
    }
    try {
      const res = await undici().request(req.url, {
        method: req.method as 'POST',
        headers: req.headers,
        body: req.body,
        dispatcher: agent(),
        signal,
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
