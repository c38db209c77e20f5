import type { Kysely } from 'kysely';
import type { Database, Db } from '../../platform/db/index.js';

export type MetadataRow = Database['resource_metadata'];

/** Rows of `resource_metadata`, always scoped by organization and kind. */
export function createMetadataStore(handle: Db) {
  const db = handle.db;
  return {
    async list(orgId: string, kind: string): Promise<MetadataRow[]> {
      return db
        .selectFrom('resource_metadata')
        .selectAll()
        .where('org_id', '=', orgId)
        .where('kind', '=', kind)
        .orderBy('item_id')
        .execute();
    },
    async all(orgId: string): Promise<MetadataRow[]> {
      return db.selectFrom('resource_metadata').selectAll().where('org_id', '=', orgId).execute();
    },
    async get(orgId: string, kind: string, id: string): Promise<MetadataRow | undefined> {
      return db
        .selectFrom('resource_metadata')
        .selectAll()
        .where('org_id', '=', orgId)
        .where('kind', '=', kind)
        .where('item_id', '=', id)
        .executeTakeFirst();
    },
    async upsert(trx: Kysely<Database>, row: MetadataRow): Promise<void> {
      const { org_id, kind, item_id, ...rest } = row;
      await trx
        .insertInto('resource_metadata')
        .values(row)
        .onConflict((oc) => oc.columns(['org_id', 'kind', 'item_id']).doUpdateSet(rest))
        .execute();
    },
    async delete(trx: Kysely<Database>, orgId: string, kind: string, id: string): Promise<boolean> {
      const r = await trx
        .deleteFrom('resource_metadata')
        .where('org_id', '=', orgId)
        .where('kind', '=', kind)
        .where('item_id', '=', id)
        .executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    },
  };
}

export type MetadataStore = ReturnType<typeof createMetadataStore>;
