import type { Clock } from '@svc/platform';
import type { Dispatcher } from 'undici';
import { undici } from '../platform/http/undici.js';
import type { Timers } from '../platform/jobs/index.js';
import { ApiError, fromNetworkError, parseRetryAfter } from './api.errors.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';
export type QueryValue = string | number | boolean | undefined;

export interface ApiRequest {
  method?: HttpMethod;
  /** Path below `/api2/json`, e.g. `/nodes/pve1/status`. */
  path: string;
  query?: Record<string, QueryValue>;
  /** Sent as application/x-www-form-urlencoded, like the official clients. */
  form?: Record<string, string>;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  timeoutMs?: number;
}

export interface ApiResponse {
  data: unknown;
  /** Envelope sibling some list endpoints add (tasks, postfix queues). */
  total?: number;
}

/** One API origin: `https://host:8006` plus the dispatcher carrying its TLS policy. */
export interface Endpoint {
  name: string;
  baseUrl: string;
  dispatcher: Dispatcher;
}

export interface TransportDeps {
  clock: Clock;
  timers: Timers;
  /** Default per-request timeout. */
  timeoutMs: number;
}

const MAX_BODY_BYTES = 64 * 1024 * 1024;

export function buildUrl(baseUrl: string, path: string, query?: Record<string, QueryValue>): string {
  let url = `${baseUrl.replace(/\/+$/, '')}/api2/json${path}`;
  if (query) {
    const qs = new URLSearchParams();
    for (const [k, v] of Object.entries(query))
      if (v !== undefined) qs.set(k, typeof v === 'boolean' ? (v ? '1' : '0') : String(v));
    const s = qs.toString();
    if (s) url += `?${s}`;
  }
  return url;
}

/** Send one request to one endpoint; every failure comes back as a typed ApiError. */
export async function sendRequest(endpoint: Endpoint, req: ApiRequest, deps: TransportDeps): Promise<ApiResponse> {
  const ctrl = new AbortController();
  const timeoutMs = req.timeoutMs ?? deps.timeoutMs;
  let timedOut = false;
  const timer = deps.timers.setTimeout(() => {
    timedOut = true;
    ctrl.abort(new Error('timeout'));
  }, timeoutMs);
  const onAbort = () => ctrl.abort(req.signal?.reason);
  if (req.signal?.aborted) onAbort();
  else req.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const res = await undici().request(buildUrl(endpoint.baseUrl, req.path, req.query), {
      method: req.method ?? 'GET',
      dispatcher: endpoint.dispatcher,
      headers: buildHeaders(req),
      body: req.form ? new URLSearchParams(req.form).toString() : undefined,
      signal: ctrl.signal,
    });
    const text = await readText(res, req.path);
    return interpret(res.statusCode, res.headers, text, req.path, deps.clock.now());
  } catch (err) {
    if (timedOut) throw new ApiError('connectivity', `timeout after ${timeoutMs} ms`, { path: req.path });
    if (req.signal?.aborted) throw new ApiError('aborted', 'request aborted', { path: req.path });
    throw fromNetworkError(err, req.path);
  } finally {
    deps.timers.clearTimeout(timer);
    req.signal?.removeEventListener('abort', onAbort);
  }
}

function buildHeaders(req: ApiRequest): Record<string, string> {
  const headers: Record<string, string> = { accept: 'application/json', ...req.headers };
  if (req.form) headers['content-type'] = 'application/x-www-form-urlencoded';
  return headers;
}

/** undici's own body consumer is much cheaper than iterating chunks; the size limit comes from the header. */
async function readText(res: Dispatcher.ResponseData, path: string): Promise<string> {
  const length = Number(res.headers['content-length'] ?? 0);
  if (length > MAX_BODY_BYTES) {
    res.body.destroy();
    throw new ApiError('malformed', `response larger than ${MAX_BODY_BYTES} bytes`, { path });
  }
  return res.body.text();
}

function interpret(
  status: number,
  headers: Record<string, string | string[] | undefined>,
  text: string,
  path: string,
  now: number,
): ApiResponse {
  if (status >= 200 && status < 300) return parseEnvelope(text, path, status);
  const message = errorMessage(text) ?? `HTTP ${status}`;
  if (status === 401 || status === 403) throw new ApiError('auth', message, { status, path });
  if (status === 429) {
    const ra = headers['retry-after'];
    const retryAfterMs = parseRetryAfter(Array.isArray(ra) ? ra[0] : ra, now);
    throw new ApiError('rate_limited', message, {
      status,
      path,
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    });
  }
  throw new ApiError(status >= 500 ? 'server' : 'client', message, { status, path });
}

/** Parse `{"data": ...}`; invalid or truncated JSON is a typed error, never a crash. */
export function parseEnvelope(text: string, path: string, status = 200): ApiResponse {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ApiError('malformed', `invalid JSON (${text.length} bytes)`, { status, path });
  }
  if (body === null || typeof body !== 'object' || !('data' in body)) {
    throw new ApiError('malformed', 'response has no data envelope', { status, path });
  }
  const { data, total } = body as { data: unknown; total?: unknown };
  return typeof total === 'number' ? { data, total } : { data };
}

/** PVE/PMG put the message in `message` (newer) or only the status line; PBS sends plain text. */
function errorMessage(text: string): string | undefined {
  if (!text) return undefined;
  try {
    const body = JSON.parse(text) as { message?: unknown; errors?: unknown };
    if (typeof body.message === 'string') return body.message.trim().slice(0, 300);
    if (body.errors) return `parameter errors: ${JSON.stringify(body.errors).slice(0, 300)}`;
    return undefined;
  } catch {
    return text.trim().slice(0, 300) || undefined;
  }
}
