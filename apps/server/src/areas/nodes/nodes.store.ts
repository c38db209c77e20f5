import type { Kysely } from 'kysely';
import type { Database, Db } from '../../platform/db/index.js';

export type NodeRow = Database['nodes'];
type Q = Kysely<Database>;

export function createNodesStore(handle: Db) {
  const db = handle.db;
  return {
    db,
    list(orgId: string, q: Q = db): Promise<NodeRow[]> {
      return q
        .selectFrom('nodes')
        .selectAll()
        .where('org_id', '=', orgId)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
    },
    listAll(): Promise<NodeRow[]> {
      return db.selectFrom('nodes').selectAll().orderBy('created_at').execute();
    },
    get(orgId: string, id: string, q: Q = db): Promise<NodeRow | undefined> {
      return q.selectFrom('nodes').selectAll().where('org_id', '=', orgId).where('id', '=', id).executeTakeFirst();
    },
    async nameTaken(orgId: string, name: string, exceptId: string | undefined, q: Q = db): Promise<boolean> {
      let sel = q.selectFrom('nodes').select('id').where('org_id', '=', orgId).where('name', '=', name);
      if (exceptId) sel = sel.where('id', '!=', exceptId);
      return (await sel.executeTakeFirst()) !== undefined;
    },
    async insert(row: NodeRow, q: Q = db): Promise<void> {
      await q.insertInto('nodes').values(row).execute();
    },
    async update(row: NodeRow, q: Q = db): Promise<void> {
      await q
        .updateTable('nodes')
        .set({
          name: row.name,
          config: row.config,
          secrets: row.secrets,
          updated_at: row.updated_at,
        })
        .where('org_id', '=', row.org_id)
        .where('id', '=', row.id)
        .execute();
    },
    async remove(orgId: string, id: string, q: Q = db): Promise<boolean> {
      const r = await q.deleteFrom('nodes').where('org_id', '=', orgId).where('id', '=', id).executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    },
    async removeAll(orgId: string, q: Q): Promise<void> {
      await q.deleteFrom('nodes').where('org_id', '=', orgId).execute();
    },
    async insertSetupToken(row: Database['setup_tokens']): Promise<void> {
      await db.insertInto('setup_tokens').values(row).execute();
    },
    getSetupToken(hash: string, q: Q = db) {
      return q.selectFrom('setup_tokens').selectAll().where('token_hash', '=', hash).executeTakeFirst();
    },
    /** Marks a token used; false when it was already used (so two racing registrations cannot both win). */
    async consumeSetupToken(hash: string, now: number, q: Q): Promise<boolean> {
      const r = await q
        .updateTable('setup_tokens')
        .set({ used_at: now })
        .where('token_hash', '=', hash)
        .where('used_at', 'is', null)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },
    async pruneSetupTokens(before: number): Promise<void> {
      await db.deleteFrom('setup_tokens').where('expires_at', '<', before).execute();
    },
  };
}

export type NodesStore = ReturnType<typeof createNodesStore>;
