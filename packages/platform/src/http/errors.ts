import { randomUUID } from 'node:crypto';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { AppError } from '../errors.js';

/** Request ids: the caller's X-Request-Id when it is safe to echo, else a fresh UUID. */
export function genRequestId(req: { headers: Record<string, string | string[] | undefined> }): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && /^[A-Za-z0-9._-]{1,64}$/.test(given) ? given : randomUUID();
}

/**
 * Fastify's own JSON parser hides where the document broke; this one reports the parser's position.
 * Keys that could poison prototypes are refused, as Fastify does.
 */
function installJsonParser(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    const text = body as string;
    if (text.length === 0) {
      done(new AppError('invalid_json', 'The body is empty but Content-Type says JSON: send a JSON document.'));
      return;
    }
    try {
      const value: unknown = JSON.parse(text);
      if (/"(?:__proto__|constructor)"\s*:/.test(text) && hasPoisonKey(value)) {
        done(new AppError('invalid_json', 'The body uses a reserved key (__proto__ or constructor.prototype).'));
        return;
      }
      done(null, value);
    } catch (err) {
      done(new AppError('invalid_json', `The body is not valid JSON: ${(err as Error).message}.`));
    }
  });
}

function hasPoisonKey(v: unknown): boolean {
  if (v === null || typeof v !== 'object') return false;
  for (const [k, child] of Object.entries(v)) {
    if (k === '__proto__') return true;
    if (k === 'constructor' && child !== null && typeof child === 'object' && 'prototype' in child) return true;
    if (hasPoisonKey(child)) return true;
  }
  return false;
}

interface PathPattern {
  method: string;
  regex: RegExp;
}

export interface ErrorHandlingOptions {
  /** The routes the app serves, so a known path with the wrong method answers 405 rather than 404. */
  routes: readonly { method: string; path: string }[];
}

function compile(path: string): RegExp {
  const escaped = path
    .split(/\{[A-Za-z0-9_]+\}/)
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('[^/]+');
  return new RegExp(`^${escaped}$`);
}

/** Maps framework errors (body parsing, limits) to svc's closed error codes. */
export function toAppError(err: FastifyError | Error): AppError | undefined {
  if (err instanceof AppError) return err;
  const e = err as FastifyError;
  switch (e.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('payload_too_large', 'The request body is larger than this endpoint accepts.');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError(
        'unsupported_media_type',
        'This endpoint accepts JSON: send the body with Content-Type: application/json.',
      );
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new AppError('invalid_json', 'The body is not valid JSON.');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AppError('invalid_json', 'The body is empty but Content-Type says JSON: send a JSON document.');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new AppError('bad_request', 'The Content-Length header does not match the body.');
  }
  if (err instanceof SyntaxError && e.statusCode === 400) {
    return new AppError('invalid_json', `The body is not valid JSON: ${err.message}.`);
  }
  if (typeof e.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) {
    return new AppError('bad_request', e.message);
  }
  return undefined;
}

/**
 * What to answer for any failure: svc's own errors and the framework's as they are, anything else as a 500
 * `internal` that names the request id and nothing of the cause. Failures on svc's side (>= 500) are logged
 * with the cause; `log` should carry the request id.
 */
export function failureAnswer(err: unknown, requestId: string, log: Pick<Logger, 'error'>): AppError {
  const known = err instanceof Error ? toAppError(err) : undefined;
  if (known) {
    if (known.status >= 500) log.error({ err }, known.message);
    return known;
  }
  log.error({ err }, 'unhandled error');
  return new AppError(
    'internal',
    `Something went wrong inside svc. The logs have the details under request id ${requestId}.`,
  );
}

function send(reply: FastifyReply, err: AppError): FastifyReply {
  reply.header('x-request-id', reply.request.id);
  for (const [k, v] of Object.entries(err.headers)) reply.header(k, v);
  return reply.code(err.status).type('application/json; charset=utf-8').send(err.toBody());
}

/**
 * One place that turns every failure into the JSON error body and answers unknown paths (404) and known
 * paths with the wrong method (405). X-Request-Id is set here for errors and by bindRoutes for successes
 * (cheaper than a hook on every request).
 */
export function installErrorHandling(app: FastifyInstance, opts: ErrorHandlingOptions): void {
  installJsonParser(app);
  const patterns: PathPattern[] = opts.routes.map((r) => ({ method: r.method, regex: compile(r.path) }));

  app.setErrorHandler((err: FastifyError, req: FastifyRequest, reply: FastifyReply) =>
    send(reply, failureAnswer(err, req.id, req.log)),
  );

  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split('?')[0] ?? '/';
    const allowed = patterns.filter((p) => p.regex.test(path)).map((p) => p.method);
    if (allowed.length > 0) {
      const methods = [...new Set(allowed.includes('GET') ? [...allowed, 'HEAD'] : allowed)].sort();
      return send(
        reply,
        new AppError(
          'method_not_allowed',
          `${req.method} is not allowed on ${path}; use ${methods.join(', ')}.`,
          {
            allowed: methods,
          },
          { allow: methods.join(', ') },
        ),
      );
    }
    return send(reply, new AppError('not_found', `There is no endpoint at ${req.method} ${path}.`));
  });
}
