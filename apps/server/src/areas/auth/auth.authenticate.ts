import { AppError } from '@svc/platform';
import type { Authenticator, AuthRequest, Principal } from '../../platform/http/principal.js';
import { SESSION_COOKIE, type Sessions } from './auth.sessions.js';

export interface CredentialSources {
  sessions: Sessions;
  /** Looks up an API token; null when it is not one. */
  token(raw: string): Promise<Principal | null>;
  /** The recovery identity while recovery mode is on and the request qualifies; else null. */
  recovery(req: AuthRequest): Principal | null | Promise<Principal | null>;
}

function header(req: AuthRequest, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

function explicitToken(req: AuthRequest): string | undefined {
  const given = header(req, 'x-api-token');
  if (given) return given.trim();
  const auth = header(req, 'authorization');
  const m = auth ? /^Bearer\s+(.+)$/i.exec(auth.trim()) : null;
  return m?.[1];
}

/**
 * Credentials in order: an explicit API token (a bad one is refused outright, never falling through to the
 * cookie), then the session cookie, then recovery mode.
 */
export function createAuthenticator(src: CredentialSources): Authenticator {
  return (req) => {
    const raw = explicitToken(req);
    if (raw !== undefined) {
      return src.token(raw).then((p) => {
        if (!p) throw new AppError('unauthorized', 'The API token is not valid (unknown or revoked).');
        return p;
      });
    }
    const cookie = req.cookies?.[SESSION_COOKIE];
    if (cookie) return src.sessions.authenticate(cookie, req).then((p) => p ?? src.recovery(req));
    // No credentials at all: answered without a promise unless recovery mode has to check a token.
    return src.recovery(req);
  };
}
