/**
 * The closed set of error codes svc answers with. Every error body is
 * `{ error: <code>, message: <sentence>, details?: ... }`; the HTTP status comes from this table only.
 */
export const errorStatus = {
  bad_request: 400,
  invalid_json: 400,
  validation_failed: 400,
  unauthorized: 401,
  license_required: 402,
  forbidden: 403,
  csrf_invalid: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  locked: 429,
  rate_limited: 429,
  internal: 500,
  not_implemented: 501,
  unavailable: 503,
} as const;

export type ErrorCode = keyof typeof errorStatus;

export interface ErrorBody {
  error: ErrorCode;
  message: string;
  details?: unknown;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly details: unknown;
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, message: string, details?: unknown, headers: Record<string, string> = {}) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.details = details;
    this.headers = headers;
  }

  get status(): number {
    return errorStatus[this.code];
  }

  toBody(): ErrorBody {
    const body: ErrorBody = { error: this.code, message: this.message };
    if (this.details !== undefined) body.details = this.details;
    return body;
  }
}

export const notFound = (what: string): AppError => new AppError('not_found', `${what} was not found.`);
export const conflict = (message: string, details?: unknown): AppError => new AppError('conflict', message, details);
export const badRequest = (message: string, details?: unknown): AppError =>
  new AppError('bad_request', message, details);
