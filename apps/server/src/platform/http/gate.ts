import type { Feature, RouteDef, Scope } from '@svc/contract';
import { AppError, type CookieOptions, type Gate, requestCookies, setReplyCookie } from '@svc/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { safeEqual, sha256Hex } from '../crypto/index.js';
import { isDirectLoopback } from './client.js';
import type { Authenticator, AuthRequest, Caller, Principal } from './principal.js';
import type { RateLimiter } from './rate-limit.js';

export interface GateDeps {
  authenticate: Authenticator;
  hasFeature(feature: Feature): boolean;
  rateLimiter?: RateLimiter;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function holdsScope(p: Principal, wanted: readonly Scope[]): boolean {
  if (p.kind !== 'token') return true;
  return p.scopes.includes('*') || wanted.some((s) => p.scopes.includes(s));
}

function rateLimit(deps: GateDeps, req: FastifyRequest, reply: FastifyReply, route: RouteDef): void {
  if (!deps.rateLimiter) return;
  const d = deps.rateLimiter.hit(route.rateLimit ?? 'default', req.ip);
  reply.header('x-ratelimit-limit', String(d.limit));
  reply.header('x-ratelimit-remaining', String(d.remaining));
  if (!d.allowed) {
    throw new AppError(
      'rate_limited',
      `Too many requests: this endpoint allows ${d.limit} per client address in its window. Retry in ${d.resetSeconds} s.`,
      { retryAfterSeconds: d.resetSeconds },
      { 'retry-after': String(d.resetSeconds) },
    );
  }
}

/** Session-authenticated writes must echo the svc_csrf value in X-CSRF-Token; token callers are exempt. */
function checkCsrf(req: FastifyRequest, route: RouteDef, p: Principal | null): void {
  if (p?.kind !== 'session' || SAFE_METHODS.has(req.method) || route.csrfExempt) return;
  const given = req.headers['x-csrf-token'];
  const value = Array.isArray(given) ? given[0] : given;
  if (!value || !p.csrfHash || !safeEqual(sha256Hex(value), p.csrfHash)) {
    throw new AppError(
      'csrf_invalid',
      'This request changes something and was authenticated by a session cookie, so it must carry the X-CSRF-Token header with the value of the svc_csrf cookie.',
    );
  }
}

/** What the authenticator sees of a request; a class so that per-request construction stays cheap. */
class HttpAuthRequest implements AuthRequest {
  readonly headers: AuthRequest['headers'];
  readonly ip: string;
  readonly protocol: 'http' | 'https';
  constructor(
    private readonly req: FastifyRequest,
    private readonly reply: FastifyReply,
  ) {
    this.headers = req.headers;
    this.ip = req.ip;
    this.protocol = req.protocol === 'https' ? 'https' : 'http';
  }
  /** Parsed only if an authenticator looks: a token or a probe never pays for cookie parsing. */
  get cookies() {
    return requestCookies(this.req);
  }
  get direct() {
    return isDirectLoopback(this.ip, this.headers);
  }
  setCookie(name: string, value: string, opts: CookieOptions): void {
    setReplyCookie(this.reply, name, value, opts);
  }
}

/**
 * The one place access rules are enforced, read from the route entry: rate limit, public / auth / admin,
 * CSRF, scopes, licence feature. Order matters: how often (429), who you are (401), what you may do (403),
 * what is licensed (402). Synchronous when the authenticator is (no credentials to look up).
 */
export function createGate(deps: GateDeps): Gate<Caller> {
  return (req, reply, route: RouteDef) => {
    rateLimit(deps, req, reply, route);
    const ar = new HttpAuthRequest(req, reply);
    if (route.access === 'public') {
      // Credentials on a public route only add to what the caller sees; bad ones do not refuse it.
      let who: Caller | Promise<Caller>;
      try {
        who = deps.authenticate(ar);
      } catch {
        who = null;
      }
      if (who instanceof Promise) return who.catch(() => null).then((caller) => admitPublic(deps, req, route, caller));
      return admitPublic(deps, req, route, who);
    }
    const who = deps.authenticate(ar);
    if (who instanceof Promise) return who.then((p) => admit(deps, req, route, p));
    return admit(deps, req, route, who);
  };
}

function admitPublic(deps: GateDeps, req: FastifyRequest, route: RouteDef, caller: Caller): Caller {
  checkCsrf(req, route, caller);
  return checkFeature(deps, route, caller);
}

function admit(deps: GateDeps, req: FastifyRequest, route: RouteDef, p: Caller): Caller {
  if (!p) throw new AppError('unauthorized', 'Authentication required: send an API token or log in.');
  checkCsrf(req, route, p);
  const scopes = route.scopes ?? [];
  if (route.access === 'admin') {
    const viaToken = p.kind === 'token' && scopes.length > 0 && holdsScope(p, scopes);
    const viaFullToken = p.kind === 'token' && p.scopes.includes('*');
    if (!(p.isAdmin && p.kind !== 'token') && !viaToken && !viaFullToken) {
      throw new AppError(
        'forbidden',
        scopes.length > 0
          ? `This endpoint needs the administrator or a token with scope ${scopes.join(' or ')}.`
          : 'This endpoint needs the administrator (or a token with scope *).',
        { requiredScopes: scopes.length > 0 ? scopes : ['*'] },
      );
    }
  } else if (scopes.length > 0 && !holdsScope(p, scopes)) {
    throw new AppError('forbidden', `This token lacks the scope this endpoint needs: ${scopes.join(' or ')}.`, {
      requiredScopes: scopes,
    });
  }
  return checkFeature(deps, route, p);
}

function checkFeature(deps: GateDeps, route: RouteDef, caller: Caller): Caller {
  if (route.feature && !deps.hasFeature(route.feature)) {
    throw new AppError('license_required', `This needs a licence with the feature ${route.feature}.`, {
      feature: route.feature,
    });
  }
  return caller;
}
