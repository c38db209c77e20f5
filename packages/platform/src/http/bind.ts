import type { RouteDef, RouteInput, RouteOutput } from '@svc/contract';
import { toRouterPath } from '@svc/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import type { z } from 'zod';
import { AppError } from '../errors.js';
import { type CookieOptions, clearReplyCookie, requestCookies, setReplyCookie } from './cookies.js';

/** What a handler may do to its response besides returning the body. */
export interface ReplyControl {
  status(code: number): void;
  header(name: string, value: string): void;
  cookie(name: string, value: string, opts: CookieOptions): void;
  clearCookie(name: string, opts?: CookieOptions): void;
  redirect(url: string, code?: number): void;
}

export interface RequestContext<P> {
  requestId: string;
  ip: string;
  log: Logger;
  principal: P;
  /** Lower-case header names. */
  headers: Readonly<Record<string, string | string[] | undefined>>;
  cookies: Readonly<Record<string, string | undefined>>;
  protocol: 'http' | 'https';
  reply: ReplyControl;
}

export type Handler<R extends RouteDef, P> = (
  ctx: RequestContext<P>,
  input: RouteInput<R>,
) => RouteOutput<R> | Promise<RouteOutput<R>>;

/** One handler per route, except `upgrade` routes: the transport that takes over their connection binds them. */
export type Handlers<T extends Record<string, RouteDef>, P> = {
  [K in keyof T as T[K] extends { responseKind: 'upgrade' } ? never : K]: Handler<T[K], P>;
};

/**
 * Decides who is calling and whether they may; throws AppError (401/402/403/429) to refuse. May answer
 * synchronously (a public route without credentials) so that the common case skips a promise.
 */
export type Gate<P> = (req: FastifyRequest, reply: FastifyReply, route: RouteDef) => P | Promise<P>;

export interface BindOptions<T extends Record<string, RouteDef>, P> {
  routes: T;
  handlers: Handlers<T, P>;
  gate: Gate<P>;
  /** Check each JSON response against its schema (tests): a handler that drifts from the contract fails. */
  validateResponses?: boolean;
}

const contentTypes: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  text: 'text/plain; charset=utf-8',
  javascript: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  binary: 'application/octet-stream',
};

/**
 * The 400 `validation_failed` error for input that broke its schema: the first three offending fields in the
 * message, every one in `details.issues`. Shared by every place svc validates input against a zod schema.
 */
export function validationFailed(where: 'params' | 'query' | 'body', error: z.ZodError): AppError {
  const issues = error.issues.map((i) => ({
    location: where,
    field: i.path.length > 0 ? i.path.join('.') : '(whole body)',
    message: i.message,
  }));
  const named = issues
    .slice(0, 3)
    .map((i) => `${i.field} (${i.message})`)
    .join('; ');
  const more = issues.length > 3 ? `; and ${issues.length - 3} more` : '';
  return new AppError('validation_failed', `Invalid ${where === 'body' ? 'request body' : where}: ${named}${more}.`, {
    issues,
  });
}

function parse(where: 'params' | 'query' | 'body', schema: z.ZodType | undefined, value: unknown): unknown {
  if (!schema) return undefined;
  const r = schema.safeParse(where === 'body' && value === undefined ? {} : (value ?? {}));
  if (r.success) return r.data;
  throw validationFailed(where, r.error);
}

function replyControl(reply: FastifyReply, onRedirect: (url: string, code: number) => void): ReplyControl {
  return {
    status: (code) => void reply.code(code),
    header: (name, value) => void reply.header(name, value),
    cookie: (name, value, opts) => setReplyCookie(reply, name, value, opts),
    clearCookie: (name, opts) => clearReplyCookie(reply, name, opts),
    redirect: onRedirect,
  };
}

/**
 * A handler's view of its request. A class, not an object literal with getters: built once per request, and
 * cookies and the reply controls are only made if the handler asks (most never do).
 */
class BoundContext<P> implements RequestContext<P> {
  readonly requestId: string;
  readonly ip: string;
  readonly log: Logger;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly protocol: 'http' | 'https';
  redirectTo: { url: string; code: number } | undefined;
  #control: ReplyControl | undefined;
  constructor(
    private readonly req: FastifyRequest,
    private readonly raw: FastifyReply,
    readonly principal: P,
  ) {
    this.requestId = req.id;
    this.ip = req.ip;
    this.log = req.log as unknown as Logger;
    this.headers = req.headers;
    this.protocol = req.protocol === 'https' ? 'https' : 'http';
  }
  get cookies(): Readonly<Record<string, string | undefined>> {
    return requestCookies(this.req);
  }
  get reply(): ReplyControl {
    this.#control ??= replyControl(this.raw, (url, code = 302) => {
      this.redirectTo = { url, code };
    });
    return this.#control;
  }
}

function isThenable<V>(v: V | PromiseLike<V>): v is PromiseLike<V> {
  return typeof (v as { then?: unknown } | null)?.then === 'function';
}

/** Registers every route of the table with its handler: validation, access gate, response by kind. */
export function bindRoutes<T extends Record<string, RouteDef>, P>(app: FastifyInstance, opts: BindOptions<T, P>): void {
  for (const [id, route] of Object.entries(opts.routes) as [keyof T & string, RouteDef][]) {
    if (route.responseKind === 'upgrade') continue;
    const handler = (opts.handlers as Record<string, unknown>)[id] as Handler<RouteDef, P>;
    if (typeof handler !== 'function') throw new Error(`No handler for route ${id}`);
    const kind = route.responseKind ?? 'json';
    const status = route.status ?? (kind === 'empty' ? 204 : 200);
    const respond = (reply: FastifyReply, ctx: BoundContext<P>, out: unknown): FastifyReply => {
      if (ctx.redirectTo) return reply.redirect(ctx.redirectTo.url, ctx.redirectTo.code);
      if (kind === 'empty') return reply.send();
      if (kind === 'json') {
        if (opts.validateResponses && route.response) {
          const r = route.response.safeParse(out);
          if (!r.success) throw new Error(`Response of ${id} breaks its contract: ${r.error.message}`);
        }
        return reply.type('application/json; charset=utf-8').send(JSON.stringify(out));
      }
      if (!reply.hasHeader('content-type')) reply.type(contentTypes[kind] ?? 'application/octet-stream');
      return reply.send(kind === 'binary' ? Buffer.from(out as Uint8Array) : out);
    };
    const run = (req: FastifyRequest, reply: FastifyReply, principal: P): FastifyReply | Promise<FastifyReply> => {
      const input = {
        params: parse('params', route.params, req.params),
        query: parse('query', route.query, req.query),
        body: parse('body', route.body, req.body),
      } as RouteInput<RouteDef>;
      reply.code(status);
      const ctx = new BoundContext<P>(req, reply, principal);
      const out = handler(ctx, input);
      return isThenable(out) ? Promise.resolve(out).then((o) => respond(reply, ctx, o)) : respond(reply, ctx, out);
    };
    app.route({
      method: route.method,
      url: toRouterPath(route.path),
      config: { routeId: id, route },
      // Synchronous unless the gate or the handler answers with a promise: a health probe needs no
      // microtask hops, and Fastify routes a synchronous throw to the error handler like a rejection.
      handler: (req, reply) => {
        reply.header('x-request-id', req.id);
        const admitted = opts.gate(req, reply, route);
        return isThenable(admitted)
          ? Promise.resolve(admitted).then((p) => run(req, reply, p))
          : run(req, reply, admitted);
      },
    });
  }
}
