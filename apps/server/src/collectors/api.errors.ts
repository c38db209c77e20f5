/** Why a call to an hv/bak/mail API failed; drives failover (connectivity only) and the poll policy. */
export type ApiErrorCategory =
  | 'auth' // 401/403, wrong credentials or permissions: retrying will not help
  | 'connectivity' // refused, reset, DNS, TLS handshake, timeout: another cluster member may answer
  | 'tls' // certificate refused (verification or fingerprint pin)
  | 'rate_limited' // 429 (Retry-After honoured)
  | 'server' // 5xx
  | 'client' // other 4xx
  | 'malformed' // invalid, truncated or unexpected body
  | 'aborted'; // the caller's signal aborted

export class ApiError extends Error {
  readonly category: ApiErrorCategory;
  readonly status: number | undefined;
  readonly retryAfterMs: number | undefined;
  readonly path: string | undefined;

  constructor(
    category: ApiErrorCategory,
    message: string,
    opts: { status?: number; retryAfterMs?: number; path?: string; cause?: unknown } = {},
  ) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = 'ApiError';
    this.category = category;
    this.status = opts.status;
    this.retryAfterMs = opts.retryAfterMs;
    this.path = opts.path;
  }
}

export const isApiError = (e: unknown): e is ApiError => e instanceof ApiError;

/** Errors after which the same call may succeed on another endpoint of the cluster. */
export const isConnectivityError = (e: unknown): boolean =>
  isApiError(e) && (e.category === 'connectivity' || e.category === 'tls');

export const isAuthError = (e: unknown): boolean => isApiError(e) && e.category === 'auth';

/** Category of any thrown value, for health reports and the poll policy. */
export function categorize(e: unknown): ApiErrorCategory | 'internal' {
  return isApiError(e) ? e.category : 'internal';
}

const connectivityCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EPIPE',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
]);

const tlsCodes =
  /^(ERR_TLS_|CERT_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_VERIFY_LEAF_SIGNATURE)/;

/** Map a low-level network error (undici/Node) to an ApiError, never leaking request headers. */
export function fromNetworkError(err: unknown, path: string): ApiError {
  if (err instanceof ApiError) return err;
  const code = findCode(err);
  const message = err instanceof Error ? err.message : String(err);
  if (code && tlsCodes.test(code)) return new ApiError('tls', `TLS: ${code}`, { path, cause: err });
  if (code && connectivityCodes.has(code))
    return new ApiError('connectivity', `${code}: ${message}`, { path, cause: err });
  return new ApiError('connectivity', message || 'network error', { path, cause: err });
}

function findCode(err: unknown): string | undefined {
  for (let e: unknown = err, depth = 0; e && depth < 4; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Retry-After is seconds or an HTTP date; `now` comes from the injected clock. */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (!value) return undefined;
  const secs = Number(value);
  if (Number.isFinite(secs)) return Math.max(0, secs * 1000);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
