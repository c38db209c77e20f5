import type { Kysely } from 'kysely';
import { type Database, type Db, DEFAULT_ORG } from '../../platform/db/index.js';

export function createLicenseStore(handle: Db) {
  return {
    async get(): Promise<{ sealed: string; activatedAt: number } | undefined> {
      const row = await handle.db
        .selectFrom('license_keys')
        .selectAll()
        .where('org_id', '=', DEFAULT_ORG)
        .executeTakeFirst();
      return row ? { sealed: row.sealed_key, activatedAt: Number(row.activated_at) } : undefined;
    },
    async put(trx: Kysely<Database>, sealed: string, now: number): Promise<void> {
      await trx.deleteFrom('license_keys').where('org_id', '=', DEFAULT_ORG).execute();
      await trx
        .insertInto('license_keys')
        .values({ org_id: DEFAULT_ORG, sealed_key: sealed, activated_at: now })
        .execute();
    },
    async remove(trx: Kysely<Database>): Promise<boolean> {
      const r = await trx.deleteFrom('license_keys').where('org_id', '=', DEFAULT_ORG).executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    },
  };
}

export type LicenseStore = ReturnType<typeof createLicenseStore>;
