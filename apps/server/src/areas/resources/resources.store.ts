import type { Kysely } from 'kysely';
import type { Database, Db } from '../../platform/db/index.js';
import type { MergeOverride } from './resources.model.js';

export interface StoredOverride extends MergeOverride {
  reason: string;
}

/** Keys are stored ordered (a < b) so a pair has one row whichever way round it was given. */
export function orderedPair(x: string, y: string): [string, string] {
  return x < y ? [x, y] : [y, x];
}

export function createResourcesStore(handle: Db) {
  const db = handle.db;
  return {
    async listOverrides(orgId: string): Promise<StoredOverride[]> {
      const rows = await db
        .selectFrom('resource_overrides')
        .select(['kind', 'a', 'b', 'reason'])
        .where('org_id', '=', orgId)
        .orderBy('created_at')
        .orderBy('a')
        .execute();
      return rows.map((r) => ({ kind: r.kind as MergeOverride['kind'], a: r.a, b: r.b, reason: r.reason }));
    },
    async putOverride(
      trx: Kysely<Database>,
      orgId: string,
      o: StoredOverride,
      by: { user: string; at: number },
    ): Promise<void> {
      const [a, b] = orderedPair(o.a, o.b);
      await trx
        .insertInto('resource_overrides')
        .values({ org_id: orgId, kind: o.kind, a, b, reason: o.reason, created_by: by.user, created_at: by.at })
        .onConflict((oc) =>
          oc.columns(['org_id', 'kind', 'a', 'b']).doUpdateSet({ reason: o.reason, created_by: by.user }),
        )
        .execute();
    },
    /** Removes the pair's override of that kind; returns whether one existed. */
    async deleteOverride(trx: Kysely<Database>, orgId: string, kind: MergeOverride['kind'], x: string, y: string) {
      const [a, b] = orderedPair(x, y);
      const r = await trx
        .deleteFrom('resource_overrides')
        .where('org_id', '=', orgId)
        .where('kind', '=', kind)
        .where('a', '=', a)
        .where('b', '=', b)
        .executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    },
  };
}

export type ResourcesStore = ReturnType<typeof createResourcesStore>;
