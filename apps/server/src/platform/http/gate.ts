import type { Feature, RouteDef, Scope } from '@svc/contract';
import { AppError, type Gate } from '@svc/platform';
import type { Authenticator, Caller, Principal } from './principal.js';

export interface GateDeps {
  authenticate: Authenticator;
  hasFeature(feature: Feature): boolean;
}

function holdsScope(p: Principal, wanted: readonly Scope[]): boolean {
  if (p.kind !== 'token') return true;
  return p.scopes.includes('*') || wanted.some((s) => p.scopes.includes(s));
}

/**
 * The one place access rules are enforced, read from the route entry: public / auth / admin, scopes,
 * licence feature. Order matters: who you are (401), what you may do (403), what is licensed (402).
 */
export function createGate(deps: GateDeps): Gate<Caller> {
  return async (req, _reply, route: RouteDef) => {
    const cookies = (req as { cookies?: Record<string, string | undefined> }).cookies;
    if (route.access === 'public') {
      const caller = await deps.authenticate({ headers: req.headers, cookies, ip: req.ip }).catch(() => null);
      return checkFeature(deps, route, caller);
    }
    const p = await deps.authenticate({ headers: req.headers, cookies, ip: req.ip });
    if (!p) throw new AppError('unauthorized', 'Authentication required: send an API token or log in.');
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
  };
}

function checkFeature(deps: GateDeps, route: RouteDef, caller: Caller): Caller {
  if (route.feature && !deps.hasFeature(route.feature)) {
    throw new AppError('license_required', `This needs a licence with the feature ${route.feature}.`, {
      feature: route.feature,
    });
  }
  return caller;
}
