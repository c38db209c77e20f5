import { randomUUID } from 'node:crypto';
import type { CookieOptions } from '@svc/platform';
import type { Kysely } from 'kysely';
import type { Config } from '../../config/index.js';
import { randomBase64Url, randomHex, sha256Hex } from '../../platform/crypto/index.js';
import { type Database, DEFAULT_ORG } from '../../platform/db/index.js';
import type { AuthRequest, Principal } from '../../platform/http/principal.js';
import type { AreaDeps } from '../area.js';
import type { AuthStore } from './auth.store.js';

export const SESSION_COOKIE = 'svc_session';
export const CSRF_COOKIE = 'svc_csrf';
export const SESSION_MS = 24 * 3_600_000;
export const REMEMBER_MS = 30 * 24 * 3_600_000;
const MAX_SESSIONS_PER_USER = 10;
/** A session is pushed forward at most once a minute, so reads do not all turn into writes. */
const SLIDE_GRANULARITY_MS = 60_000;

export interface NewSession {
  username: string;
  isAdmin: boolean;
  authMethod: 'password' | 'oidc';
  rememberMe: boolean;
}

export interface IssuedSession {
  id: string;
  token: string;
  csrf: string;
  expiresAt: number;
  maxAgeSeconds: number;
}

export function cookieOptions(
  config: Config,
  protocol: 'http' | 'https',
  httpOnly: boolean,
  maxAge?: number,
): CookieOptions {
  const secure = protocol === 'https' || (config.publicUrl?.startsWith('https:') ?? false);
  return { httpOnly, secure, sameSite: 'lax', path: '/', ...(maxAge !== undefined ? { maxAge } : {}) };
}

export function createSessions(deps: AreaDeps, store: AuthStore) {
  return {
    /** Creates a session inside the caller's transaction; the raw values exist only in the returned object. */
    async start(trx: Kysely<Database>, s: NewSession): Promise<IssuedSession> {
      const now = deps.clock.now();
      const duration = s.rememberMe ? REMEMBER_MS : SESSION_MS;
      const issued = {
        id: randomUUID(),
        token: randomHex(32),
        csrf: randomBase64Url(32),
        expiresAt: now + duration,
        maxAgeSeconds: duration / 1000,
      };
      await store.insertSession(
        trx,
        {
          id: issued.id,
          token_hash: sha256Hex(issued.token),
          csrf_hash: sha256Hex(issued.csrf),
          org_id: DEFAULT_ORG,
          username: s.username,
          is_admin: s.isAdmin ? 1 : 0,
          auth_method: s.authMethod,
          created_at: now,
          expires_at: now + duration,
          duration_ms: duration,
        },
        MAX_SESSIONS_PER_USER,
      );
      return issued;
    },

    /** The session behind a `svc_session` cookie, slid forward by its own duration on use. */
    async authenticate(raw: string, req: AuthRequest): Promise<Principal | null> {
      const row = await store.findSession(sha256Hex(raw));
      const now = deps.clock.now();
      if (!row) return null;
      if (row.expires_at <= now) {
        await store.deleteExpiredSessions(now);
        return null;
      }
      let expiresAt = row.expires_at;
      if (now + row.duration_ms - row.expires_at >= SLIDE_GRANULARITY_MS) {
        expiresAt = now + row.duration_ms;
        await store.extendSession(row.id, expiresAt);
        const maxAge = row.duration_ms / 1000;
        req.setCookie?.(SESSION_COOKIE, raw, cookieOptions(deps.config, req.protocol, true, maxAge));
        const csrf = req.cookies?.[CSRF_COOKIE];
        if (csrf) req.setCookie?.(CSRF_COOKIE, csrf, cookieOptions(deps.config, req.protocol, false, maxAge));
      }
      return {
        kind: 'session',
        username: row.username,
        isAdmin: row.is_admin === 1,
        scopes: ['*'],
        orgId: row.org_id,
        sessionId: row.id,
        csrfHash: row.csrf_hash,
        authMethod: row.auth_method === 'oidc' ? 'oidc' : 'password',
        expiresAt,
      };
    },

    end: (trx: Kysely<Database>, id: string) => store.deleteSession(trx, id),
    endAllOf: (trx: Kysely<Database>, username: string, exceptId?: string) =>
      store.deleteSessionsOf(trx, username, exceptId),
  };
}

export type Sessions = ReturnType<typeof createSessions>;
