import type { FastifyReply, FastifyRequest } from 'fastify';

export interface CookieOptions {
  httpOnly?: boolean;
  secure?: boolean;
  /** Default `lax`. */
  sameSite?: 'lax' | 'strict' | 'none';
  path?: string;
  domain?: string;
  /** Seconds. */
  maxAge?: number;
  expires?: Date;
}

// RFC 6265 token characters for a cookie name; values are percent-encoded, so they are always safe.
const NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
// Kept on the request and reply objects themselves: a WeakMap entry per request is measurable GC work.
const PARSED = Symbol('svc.cookies');
const PENDING = Symbol('svc.setCookies');
const NONE: Readonly<Record<string, string | undefined>> = Object.freeze({});
type WithParsed = { [PARSED]?: Record<string, string | undefined> };
type WithPending = { [PENDING]?: Map<string, string> };

function decode(v: string): string {
  if (!v.includes('%')) return v;
  try {
    return decodeURIComponent(v);
  } catch {
    return v; // a malformed escape is kept as sent rather than failing the request
  }
}

/** `a=1; b="two"` → `{a: '1', b: 'two'}`; the first occurrence of a name wins. */
export function parseCookieHeader(header: string): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim();
    if (!name || Object.hasOwn(out, name)) continue;
    let value = part.slice(eq + 1).trim();
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    out[name] = decode(value);
  }
  return out;
}

/**
 * The request's cookies, parsed on first use and kept for the rest of the request. Most requests (probes,
 * token-authenticated API calls) never look, so they never pay for parsing.
 */
export function requestCookies(req: FastifyRequest): Readonly<Record<string, string | undefined>> {
  const header = req.headers.cookie;
  if (!header) return NONE;
  const holder = req as WithParsed;
  holder[PARSED] ??= parseCookieHeader(header);
  return holder[PARSED];
}

export function serializeCookie(name: string, value: string, opts: CookieOptions = {}): string {
  if (!NAME.test(name)) throw new TypeError(`Invalid cookie name: ${JSON.stringify(name)}`);
  let out = `${name}=${encodeURIComponent(value)}`;
  if (opts.maxAge !== undefined) out += `; Max-Age=${Math.floor(opts.maxAge)}`;
  if (opts.domain) out += `; Domain=${opts.domain}`;
  if (opts.path) out += `; Path=${opts.path}`;
  if (opts.expires) out += `; Expires=${opts.expires.toUTCString()}`;
  if (opts.httpOnly) out += '; HttpOnly';
  if (opts.secure) out += '; Secure';
  const same = opts.sameSite ?? 'lax';
  out += `; SameSite=${same === 'lax' ? 'Lax' : same === 'strict' ? 'Strict' : 'None'}`;
  return out;
}

/**
 * Adds a Set-Cookie to the reply. Setting the same cookie (name, domain, path) again in one response replaces
 * the earlier value, so a renewal and a logout in one request never send two contradicting headers.
 */
export function setReplyCookie(reply: FastifyReply, name: string, value: string, opts: CookieOptions = {}): void {
  const holder = reply as WithPending;
  holder[PENDING] ??= new Map();
  const jar = holder[PENDING];
  jar.set(`${name};${opts.domain ?? ''};${opts.path ?? '/'}`, serializeCookie(name, value, opts));
  reply.removeHeader('set-cookie');
  reply.header('set-cookie', [...jar.values()]);
}

/** Expires the cookie in the browser (path `/` unless given). */
export function clearReplyCookie(reply: FastifyReply, name: string, opts: CookieOptions = {}): void {
  setReplyCookie(reply, name, '', { path: '/', ...opts, expires: new Date(0), maxAge: 0 });
}
