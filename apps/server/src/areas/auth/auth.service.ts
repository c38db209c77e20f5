import { AppError, type ReplyControl } from '@svc/platform';
import type { Kysely } from 'kysely';
import { burnPasswordCheck, hashPassword, verifyPassword } from '../../platform/crypto/index.js';
import { type Database, DEFAULT_ORG } from '../../platform/db/index.js';
import type { Caller } from '../../platform/http/principal.js';
import type { AreaDeps } from '../area.js';
import type { Actor, AuditArea } from '../audit/index.js';
import type { Lockout } from './auth.lockout.js';
import {
  CSRF_COOKIE,
  cookieOptions,
  type IssuedSession,
  type NewSession,
  SESSION_COOKIE,
  type Sessions,
} from './auth.sessions.js';
import type { AuthStore } from './auth.store.js';

export interface LoginInput {
  username: string;
  password: string;
  rememberMe: boolean;
}

export interface CookieTarget {
  reply: Pick<ReplyControl, 'cookie' | 'clearCookie'>;
  protocol: 'http' | 'https';
}

export function createAuthService(
  deps: AreaDeps,
  store: AuthStore,
  sessions: Sessions,
  lockout: Lockout,
  audit: AuditArea,
) {
  const tx = <T>(fn: (trx: Kysely<Database>) => Promise<T>) => deps.db.db.transaction().execute(fn);

  function setSessionCookies(target: CookieTarget, s: IssuedSession): void {
    const opts = (httpOnly: boolean) => cookieOptions(deps.config, target.protocol, httpOnly, s.maxAgeSeconds);
    target.reply.cookie(SESSION_COOKIE, s.token, opts(true));
    target.reply.cookie(CSRF_COOKIE, s.csrf, opts(false));
  }

  async function checkPassword(username: string, password: string): Promise<boolean> {
    const user = await store.getUser(username);
    if (!user) {
      await burnPasswordCheck(password);
      return false;
    }
    return verifyPassword(password, user.password_hash);
  }

  return {
    setSessionCookies,
    checkPassword,

    async login(target: CookieTarget, actor: Actor, input: LoginInput) {
      await lockout.assertNotLocked(input.username, actor.ip);
      const ok = await checkPassword(input.username, input.password);
      if (!ok) {
        const r = await tx(async (trx) => {
          const res = await lockout.recordFailure(trx, input.username, actor.ip);
          await audit.record(trx, { ...actor, user: input.username }, { event: 'login_failed', success: false });
          for (const key of res.lockedKeys) {
            await audit.record(
              trx,
              { ...actor, user: input.username },
              {
                event: 'lockout',
                success: false,
                details: `${key} locked for 15 minutes after 5 failed logins`,
              },
            );
          }
          return res;
        });
        if (r.locked) throw r.locked;
        throw new AppError('unauthorized', 'Invalid username or password.', { remainingAttempts: r.remaining });
      }
      const user = (await store.getUser(input.username))!;
      const session = await tx(async (trx) => {
        await lockout.clearFor(trx, input.username, actor.ip);
        const s = await sessions.start(trx, {
          username: user.username,
          isAdmin: user.is_admin === 1,
          authMethod: 'password',
          rememberMe: input.rememberMe,
        });
        await audit.record(
          trx,
          { ...actor, user: user.username },
          {
            event: 'login',
            success: true,
            details: input.rememberMe ? 'password, remember me (30 days)' : 'password',
          },
        );
        return s;
      });
      setSessionCookies(target, session);
      return {
        success: true as const,
        username: user.username,
        expiresAt: new Date(session.expiresAt).toISOString(),
        csrfToken: session.csrf,
      };
    },

    async logout(target: CookieTarget, actor: Actor, caller: Caller): Promise<void> {
      await tx(async (trx) => {
        if (caller?.sessionId) await sessions.end(trx, caller.sessionId);
        await audit.record(trx, actor, { event: 'logout', success: true, details: caller?.kind ?? '' });
      });
      target.reply.clearCookie(SESSION_COOKIE, cookieOptions(deps.config, target.protocol, true));
      target.reply.clearCookie(CSRF_COOKIE, cookieOptions(deps.config, target.protocol, false));
    },

    /** Opens a session for an identity checked elsewhere (OIDC), inside the caller's transaction. */
    startSession: (trx: Kysely<Database>, s: NewSession) => sessions.start(trx, s),

    async getAdmin(): Promise<{ username: string } | undefined> {
      const row = await store.getAdmin();
      return row ? { username: row.username } : undefined;
    },

    /** Replaces the administrator (first-run setup, forced re-setup); other sessions of the old one end. */
    async replaceAdmin(trx: Kysely<Database>, username: string, passwordHash: string): Promise<void> {
      const now = deps.clock.now();
      const old = await store.getAdmin(trx);
      if (old) await sessions.endAllOf(trx, old.username);
      await store.replaceAdmin(trx, {
        username,
        org_id: DEFAULT_ORG,
        password_hash: passwordHash,
        is_admin: 1,
        created_at: now,
        updated_at: now,
      });
    },

    /** Sets a user's password and ends their other sessions; false when there is no such user. */
    async setPassword(trx: Kysely<Database>, username: string, hash: string, keepSession?: string): Promise<boolean> {
      const ok = await store.setPassword(trx, username, hash, deps.clock.now());
      if (ok) await sessions.endAllOf(trx, username, keepSession);
      return ok;
    },

    hashPassword,
    lockout,
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
