import type { z } from 'zod';
import type { Access, Feature, RateClass, Scope } from './access.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type AnyObject = z.ZodType<Record<string, unknown>>;

/**
 * What a successful response carries: JSON matching `response`, or a document of another kind.
 * `upgrade`: the connection is handed to a transport (WebSocket, socket.io) that is bound outside `bindRoutes`.
 */
export type ResponseKind = 'json' | 'html' | 'text' | 'javascript' | 'css' | 'binary' | 'empty' | 'upgrade';

export interface RouteDef {
  method: Method;
  /** OpenAPI-style path with `{param}` segments. */
  path: string;
  summary: string;
  tag: string;
  access: Access;
  scopes?: readonly Scope[];
  feature?: Feature;
  params?: AnyObject;
  query?: AnyObject;
  body?: z.ZodType;
  response?: z.ZodType;
  responseKind?: ResponseKind;
  /** Success status, default 200 (204 for `empty`). */
  status?: number;
  rateLimit?: RateClass;
  /** Session-authenticated writes normally need the CSRF header; these routes are exempt (login, setup). */
  csrfExempt?: boolean;
  deprecated?: boolean;
  description?: string;
}

/** Identity function that keeps the literal type of a route entry (so handlers are typed from it). */
export function defineRoute<const R extends RouteDef>(route: R): R {
  return route;
}

type Infer<S> = S extends z.ZodType ? z.infer<S> : undefined;
type InferIn<S> = S extends z.ZodType ? z.input<S> : undefined;

export interface RouteInput<R extends RouteDef> {
  params: Infer<R['params']>;
  query: Infer<R['query']>;
  body: Infer<R['body']>;
}

/** What a handler returns: the JSON body for `json` routes, text for documents, bytes for binaries. */
export type RouteOutput<R extends RouteDef> = R['responseKind'] extends 'empty' | 'upgrade'
  ? undefined
  : R['responseKind'] extends 'html' | 'text' | 'javascript' | 'css'
    ? string
    : R['responseKind'] extends 'binary'
      ? Uint8Array
      : InferIn<R['response']>;

/** Converts `/api/resources/{id}` to the `:id` form used by HTTP routers. */
export function toRouterPath(path: string): string {
  return path.replace(/\{([A-Za-z0-9_]+)\}/g, ':$1');
}
