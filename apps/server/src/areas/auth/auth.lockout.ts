import { AppError, type Clock } from '@svc/platform';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/index.js';
import type { AuthStore } from './auth.store.js';

export const MAX_FAILURES = 5;
export const LOCKOUT_MS = 15 * 60_000;
/** A counter idle this long starts again from zero. */
const IDLE_RESET_MS = 2 * LOCKOUT_MS;

export function lockoutKeys(username: string, ip: string): { user: string; ip: string } {
  return { user: `user:${username.toLowerCase()}`, ip: `ip:${ip}` };
}

function lockedError(what: string, until: number, now: number): AppError {
  const seconds = Math.max(1, Math.ceil((until - now) / 1000));
  const minutes = Math.ceil(seconds / 60);
  return new AppError(
    'locked',
    `Too many failed logins for ${what}. Try again after ${new Date(until).toISOString()} (in about ${minutes} minute${minutes === 1 ? '' : 's'}), or ask an administrator to reset the lockout.`,
    { lockedUntil: new Date(until).toISOString(), retryAfterSeconds: seconds },
    { 'retry-after': String(seconds) },
  );
}

/** Counts failed logins per username and, separately, per client address; five lock either for 15 minutes. */
export function createLockout(store: AuthStore, clock: Clock) {
  return {
    /** Throws 429 `locked` when the username or the address is locked. */
    async assertNotLocked(username: string, ip: string): Promise<void> {
      const keys = lockoutKeys(username, ip);
      const now = clock.now();
      for (const row of await store.getFailures([keys.user, keys.ip])) {
        if (row.locked_until !== null && row.locked_until > now) {
          throw lockedError(row.identifier === keys.user ? `user ${username}` : 'this address', row.locked_until, now);
        }
      }
    },

    /** Records a failure for both keys; returns the lock error to throw when this failure locked one of them. */
    async recordFailure(
      trx: Kysely<Database>,
      username: string,
      ip: string,
    ): Promise<{ locked: AppError | undefined; remaining: number; lockedKeys: string[] }> {
      const keys = lockoutKeys(username, ip);
      const now = clock.now();
      const existing = new Map((await store.getFailures([keys.user, keys.ip], trx)).map((r) => [r.identifier, r]));
      let remaining = MAX_FAILURES;
      const lockedKeys: string[] = [];
      for (const id of [keys.user, keys.ip]) {
        const prev = existing.get(id);
        const stale =
          !prev || (prev.locked_until !== null && prev.locked_until <= now) || now - prev.updated_at > IDLE_RESET_MS;
        const failures = (stale ? 0 : prev.failures) + 1;
        const lockedUntil = failures >= MAX_FAILURES ? now + LOCKOUT_MS : null;
        if (lockedUntil) lockedKeys.push(id);
        remaining = Math.min(remaining, Math.max(0, MAX_FAILURES - failures));
        await store.putFailure(trx, { identifier: id, failures, locked_until: lockedUntil, updated_at: now });
      }
      const what = lockedKeys.includes(keys.user) ? `user ${username}` : 'this address';
      return {
        locked: lockedKeys.length > 0 ? lockedError(what, now + LOCKOUT_MS, now) : undefined,
        remaining,
        lockedKeys,
      };
    },

    async clearFor(trx: Kysely<Database>, username: string, ip: string): Promise<void> {
      const keys = lockoutKeys(username, ip);
      await store.clearFailures(trx, [keys.user, keys.ip]);
    },

    /** An administrator's reset: the identifier is a username or an IP address. */
    async reset(trx: Kysely<Database>, identifier: string): Promise<number> {
      return store.clearFailures(trx, [`user:${identifier.toLowerCase()}`, `ip:${identifier}`]);
    },
  };
}

export type Lockout = ReturnType<typeof createLockout>;
