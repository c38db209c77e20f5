import type { Kysely } from 'kysely';
import type { Database, Db } from '../../platform/db/index.js';

type UserRow = Database['users'];
type SessionRow = Database['sessions'];
type FailureRow = Database['login_failures'];

export function createAuthStore(handle: Db) {
  const db = handle.db;
  return {
    getUser(username: string): Promise<UserRow | undefined> {
      return db.selectFrom('users').selectAll().where('username', '=', username).executeTakeFirst();
    },
    async getAdmin(q: Kysely<Database> = db): Promise<UserRow | undefined> {
      return q.selectFrom('users').selectAll().where('is_admin', '=', 1).orderBy('created_at').executeTakeFirst();
    },
    async replaceAdmin(trx: Kysely<Database>, row: UserRow): Promise<void> {
      await trx.deleteFrom('users').where('is_admin', '=', 1).execute();
      await trx.deleteFrom('users').where('username', '=', row.username).execute();
      await trx.insertInto('users').values(row).execute();
    },
    async setPassword(trx: Kysely<Database>, username: string, hash: string, now: number): Promise<boolean> {
      const r = await trx
        .updateTable('users')
        .set({ password_hash: hash, updated_at: now })
        .where('username', '=', username)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },

    async insertSession(trx: Kysely<Database>, row: SessionRow, keep: number): Promise<void> {
      await trx.insertInto('sessions').values(row).execute();
      const extra = await trx
        .selectFrom('sessions')
        .select('id')
        .where('username', '=', row.username)
        .orderBy('created_at', 'desc')
        .orderBy('id')
        .offset(keep)
        .limit(1000)
        .execute();
      if (extra.length > 0) {
        await trx
          .deleteFrom('sessions')
          .where(
            'id',
            'in',
            extra.map((e) => e.id),
          )
          .execute();
      }
    },
    findSession(tokenHash: string): Promise<SessionRow | undefined> {
      return db.selectFrom('sessions').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
    },
    async extendSession(id: string, expiresAt: number): Promise<void> {
      await db.updateTable('sessions').set({ expires_at: expiresAt }).where('id', '=', id).execute();
    },
    async deleteSession(trx: Kysely<Database>, id: string): Promise<void> {
      await trx.deleteFrom('sessions').where('id', '=', id).execute();
    },
    async deleteSessionsOf(trx: Kysely<Database>, username: string, exceptId?: string): Promise<void> {
      let q = trx.deleteFrom('sessions').where('username', '=', username);
      if (exceptId) q = q.where('id', '!=', exceptId);
      await q.execute();
    },
    async deleteExpiredSessions(now: number): Promise<void> {
      await db.deleteFrom('sessions').where('expires_at', '<=', now).execute();
    },

    getFailures(identifiers: string[], q: Kysely<Database> = db): Promise<FailureRow[]> {
      return q.selectFrom('login_failures').selectAll().where('identifier', 'in', identifiers).execute();
    },
    async putFailure(trx: Kysely<Database>, row: FailureRow): Promise<void> {
      await trx.deleteFrom('login_failures').where('identifier', '=', row.identifier).execute();
      await trx.insertInto('login_failures').values(row).execute();
    },
    async clearFailures(trx: Kysely<Database>, identifiers: string[]): Promise<number> {
      const r = await trx.deleteFrom('login_failures').where('identifier', 'in', identifiers).executeTakeFirst();
      return Number(r.numDeletedRows);
    },
  };
}

export type AuthStore = ReturnType<typeof createAuthStore>;
