import type { Clock } from '@svc/platform';
import type { Dispatcher } from 'undici';
import type { Timers } from '../platform/jobs/index.js';
import { type DispatchLimits, dispatchText, type StopReason, type TextResponse } from './api.dispatch.js';
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
  const t = target(baseUrl);
  return `${t.origin}${pathWithQuery(t, path, query)}`;
}

interface Target {
  origin: string;
  /** Path prefix up to and including `/api2/json`. */
  prefix: string;
}

/** Endpoints are few and long-lived: split each base URL once, not per request. */
const targets = new Map<string, Target>();

function target(baseUrl: string): Target {
  let t = targets.get(baseUrl);
  if (!t) {
    const url = new URL(baseUrl);
    t = { origin: url.origin, prefix: `${url.pathname.replace(/\/+$/, '')}/api2/json` };
    targets.set(baseUrl, t);
  }
  return t;
}

function pathWithQuery(t: Target, path: string, query: Record<string, QueryValue> | undefined): string {
  const p = t.prefix + path;
  if (!query) return p;
  const qs = new URLSearchParams();
  for (const k in query) {
    const v = query[k];
    if (v !== undefined) qs.set(k, typeof v === 'boolean' ? (v ? '1' : '0') : String(v));
  }
  const s = qs.toString();
  return s ? `${p}?${s}` : p;
}

/** Send one request to one endpoint; every failure comes back as a typed ApiError. */
export async function sendRequest(endpoint: Endpoint, req: ApiRequest, deps: TransportDeps): Promise<ApiResponse> {
  const t = target(endpoint.baseUrl);
  const timeoutMs = req.timeoutMs ?? deps.timeoutMs;
  const path = req.path;
  let res: TextResponse;
  try {
    res = await dispatchText(
      endpoint.dispatcher,
      {
        origin: t.origin,
        path: pathWithQuery(t, path, req.query),
        method: req.method ?? 'GET',
        headers: buildHeaders(req),
        body: req.form ? new URLSearchParams(req.form).toString() : null,
      },
      {
        timers: deps.timers,
        timeoutMs,
        signal: req.signal,
        maxBytes: MAX_BODY_BYTES,
        stopError,
        path,
      },
    );
  } catch (err) {
    throw fromNetworkError(err, path);
  }
  return interpret(res.status, res.headers, res.text, path, deps.clock);
}

function stopError(why: StopReason, limits: DispatchLimits): ApiError {
  const { path } = limits;
  if (why === 'timeout') return new ApiError('connectivity', `timeout after ${limits.timeoutMs} ms`, { path });
  if (why === 'aborted') return new ApiError('aborted', 'request aborted', { path });
  return new ApiError('malformed', `response larger than ${limits.maxBytes} bytes`, { path });
}

function buildHeaders(req: ApiRequest): Record<string, string> {
  const headers: Record<string, string> = { accept: 'application/json', ...req.headers };
  if (req.form) headers['content-type'] = 'application/x-www-form-urlencoded';
  return headers;
}

function interpret(
  status: number,
  headers: Record<string, string | string[] | undefined>,
  text: string,
  path: string,
  clock: Clock,
): ApiResponse {
  if (status >= 200 && status < 300) return parseEnvelope(text, path, status);
  const message = errorMessage(text) ?? `HTTP ${status}`;
  if (status === 401 || status === 403) throw new ApiError('auth', message, { status, path });
  if (status === 429) {
    const ra = headers['retry-after'];
    const retryAfterMs = parseRetryAfter(Array.isArray(ra) ? ra[0] : ra, clock.now());
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
