import { sql } from 'kysely';
import type { Db } from '../../platform/db/index.js';

export function createSystemStore(handle: Db) {
  return {
    async readSetting<T>(orgId: string, key: string): Promise<T | undefined> {
      const row = await handle.db
        .selectFrom('settings')
        .select('value')
        .where('org_id', '=', orgId)
        .where('key', '=', key)
        .executeTakeFirst();
      return row ? (JSON.parse(row.value) as T) : undefined;
    },
    async ping(): Promise<boolean> {
      await sql`select 1`.execute(handle.db);
      return true;
    },
  };
}

export type SystemStore = ReturnType<typeof createSystemStore>;
