import type { Scope } from '@svc/contract';
import type { Kysely } from 'kysely';
import { type Database, type Db, DEFAULT_ORG } from '../../platform/db/index.js';

type TokenRow = Database['api_tokens'];

export interface TokenRecord {
  id: string;
  name: string;
  scopes: Scope[];
  prefix: string;
  suffix: string;
  isPrimary: boolean;
  createdAt: number;
  lastUsedAt: number | null;
}

function toRecord(r: TokenRow): TokenRecord {
  return {
    id: r.id,
    name: r.name,
    scopes: JSON.parse(r.scopes) as Scope[],
    prefix: r.prefix,
    suffix: r.suffix,
    isPrimary: r.is_primary === 1,
    createdAt: Number(r.created_at),
    lastUsedAt: r.last_used_at === null ? null : Number(r.last_used_at),
  };
}

export function createSecurityStore(handle: Db) {
  const db = handle.db;
  return {
    async insertToken(trx: Kysely<Database>, row: TokenRow): Promise<void> {
      await trx.insertInto('api_tokens').values(row).execute();
    },
    async listTokens(): Promise<TokenRecord[]> {
      const rows = await db
        .selectFrom('api_tokens')
        .selectAll()
        .where('org_id', '=', DEFAULT_ORG)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      return rows.map(toRecord);
    },
    async findTokenByHash(hash: string): Promise<(TokenRecord & { hash: string }) | undefined> {
      const row = await db.selectFrom('api_tokens').selectAll().where('token_hash', '=', hash).executeTakeFirst();
      return row ? { ...toRecord(row), hash: row.token_hash } : undefined;
    },
    async touchToken(id: string, at: number): Promise<void> {
      await db.updateTable('api_tokens').set({ last_used_at: at }).where('id', '=', id).execute();
    },
    async deleteToken(trx: Kysely<Database>, id: string): Promise<TokenRecord | undefined> {
      const row = await trx
        .selectFrom('api_tokens')
        .selectAll()
        .where('org_id', '=', DEFAULT_ORG)
        .where('id', '=', id)
        .executeTakeFirst();
      if (!row) return undefined;
      await trx.deleteFrom('api_tokens').where('id', '=', id).execute();
      return toRecord(row);
    },
    async deletePrimaryTokens(trx: Kysely<Database>): Promise<void> {
      await trx.deleteFrom('api_tokens').where('org_id', '=', DEFAULT_ORG).where('is_primary', '=', 1).execute();
    },
    async countTokens(): Promise<number> {
      const r = await db
        .selectFrom('api_tokens')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return Number(r.n);
    },

    async insertRecoveryToken(trx: Kysely<Database>, hash: string, now: number, expiresAt: number): Promise<void> {
      await trx.deleteFrom('recovery_tokens').where('expires_at', '<=', now).execute();
      await trx
        .insertInto('recovery_tokens')
        .values({ token_hash: hash, created_at: now, expires_at: expiresAt })
        .execute();
    },
    async recoveryTokenValid(hash: string, now: number): Promise<boolean> {
      const row = await db
        .selectFrom('recovery_tokens')
        .select('token_hash')
        .where('token_hash', '=', hash)
        .where('expires_at', '>', now)
        .executeTakeFirst();
      return row !== undefined;
    },
    async deleteRecoveryTokens(trx: Kysely<Database>): Promise<void> {
      await trx.deleteFrom('recovery_tokens').execute();
    },

    async readSetting<T>(key: string): Promise<T | undefined> {
      const row = await db
        .selectFrom('settings')
        .select('value')
        .where('org_id', '=', DEFAULT_ORG)
        .where('key', '=', key)
        .executeTakeFirst();
      return row ? (JSON.parse(row.value) as T) : undefined;
    },
    async writeSetting(trx: Kysely<Database>, key: string, value: unknown, now: number): Promise<void> {
      await trx.deleteFrom('settings').where('org_id', '=', DEFAULT_ORG).where('key', '=', key).execute();
      await trx
        .insertInto('settings')
        .values({ org_id: DEFAULT_ORG, key, value: JSON.stringify(value), updated_at: new Date(now).toISOString() })
        .execute();
    },
  };
}

export type SecurityStore = ReturnType<typeof createSecurityStore>;
