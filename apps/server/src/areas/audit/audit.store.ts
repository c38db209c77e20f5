import type { Kysely } from 'kysely';
import type { Database, Db } from '../../platform/db/index.js';

type AuditRow = Database['audit_events'];

export interface AuditFilter {
  orgId: string;
  limit: number;
  event?: string;
  user?: string;
  success?: boolean;
  start?: number;
  end?: number;
}

export function createAuditStore(handle: Db) {
  function filtered(f: AuditFilter) {
    let q = handle.db.selectFrom('audit_events').where('org_id', '=', f.orgId);
    if (f.event !== undefined) q = q.where('event', '=', f.event);
    if (f.user !== undefined) q = q.where('username', '=', f.user);
    if (f.success !== undefined) q = q.where('success', '=', f.success ? 1 : 0);
    if (f.start !== undefined) q = q.where('timestamp', '>=', f.start);
    if (f.end !== undefined) q = q.where('timestamp', '<=', f.end);
    return q;
  }
  return {
    async insert(trx: Kysely<Database>, row: AuditRow): Promise<void> {
      await trx.insertInto('audit_events').values(row).execute();
    },
    async list(f: AuditFilter): Promise<{ rows: AuditRow[]; total: number }> {
      const rows = await filtered(f).selectAll().orderBy('timestamp', 'desc').orderBy('id').limit(f.limit).execute();
      const count = await filtered(f)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return { rows, total: Number(count.n) };
    },
    async find(orgId: string, id: string): Promise<AuditRow | undefined> {
      return handle.db
        .selectFrom('audit_events')
        .selectAll()
        .where('org_id', '=', orgId)
        .where('id', '=', id)
        .executeTakeFirst();
    },
    async purgeBefore(trx: Kysely<Database>, cutoff: number): Promise<number> {
      const r = await trx.deleteFrom('audit_events').where('timestamp', '<', cutoff).executeTakeFirst();
      return Number(r.numDeletedRows);
    },
  };
}

export type AuditStore = ReturnType<typeof createAuditStore>;
