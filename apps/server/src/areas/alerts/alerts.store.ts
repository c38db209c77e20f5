import type { AlertConfig, AlertRecord, Incident, ResolvedAlert } from '@svc/contract';
import { timeOrderedId } from '@svc/platform';
import type { Kysely } from 'kysely';
import type { Database, Db } from '../../platform/db/index.js';
import type { Batch, IncidentEvent, KeyState } from './alerts.model.js';
import { iso } from './alerts.model.js';

const CONFIG_KEY = 'alerts.config';
const MAX_INCIDENT_EVENTS = 120;

export interface HistoryFilter {
  limit: number;
  offset: number;
  start?: number;
  end?: number;
  severity?: 'warning' | 'critical';
  resourceId?: string;
}

export function createAlertsStore(handle: Db, orgId: string) {
  const db = handle.db;
  return {
    transaction: <T>(fn: (trx: Kysely<Database>) => Promise<T>) => db.transaction().execute(fn),

    async readConfig(): Promise<unknown> {
      const row = await db
        .selectFrom('settings')
        .select('value')
        .where('org_id', '=', orgId)
        .where('key', '=', CONFIG_KEY)
        .executeTakeFirst();
      return row ? JSON.parse(row.value) : undefined;
    },
    async writeConfig(trx: Kysely<Database>, config: AlertConfig, now: number): Promise<void> {
      const row = { org_id: orgId, key: CONFIG_KEY, value: JSON.stringify(config), updated_at: iso(now) };
      await trx
        .insertInto('settings')
        .values(row)
        .onConflict((oc) => oc.columns(['org_id', 'key']).doUpdateSet({ value: row.value, updated_at: row.updated_at }))
        .execute();
    },

    async loadStates(): Promise<KeyState[]> {
      const rows = await db.selectFrom('alert_states').select('data').where('org_id', '=', orgId).execute();
      return rows.map((r) => JSON.parse(r.data) as KeyState);
    },

    /** Writes one engine step: states, history, incidents and notices commit or roll back together. */
    async apply(trx: Kysely<Database>, b: Batch, now: number): Promise<void> {
      for (const id of b.del)
        await trx.deleteFrom('alert_states').where('org_id', '=', orgId).where('id', '=', id).execute();
      for (const s of b.put.values()) {
        const row = {
          org_id: orgId,
          id: s.id,
          status: s.active ? 'active' : 'idle',
          start_time: s.startMs,
          updated_at: now,
          data: JSON.stringify(s),
        };
        await trx
          .insertInto('alert_states')
          .values(row)
          .onConflict((oc) =>
            oc
              .columns(['org_id', 'id'])
              .doUpdateSet({ status: row.status, start_time: row.start_time, updated_at: now, data: row.data }),
          )
          .execute();
      }
      for (const h of b.history) await writeHistory(trx, orgId, h);
      for (const i of b.incidents) await writeIncident(trx, orgId, i);
      if (b.notices.length > 0)
        await trx
          .insertInto('alert_notices')
          .values(
            b.notices.map((n) => ({
              org_id: orgId,
              alert_id: n.alertId,
              event: n.event,
              at: n.at,
              due_at: n.dueAt,
              handed_at: null,
              alert: JSON.stringify(n.alert),
            })),
          )
          .execute();
    },

    async listHistory(f: HistoryFilter): Promise<ResolvedAlert[]> {
      let q = db.selectFrom('alert_history').select('data').where('org_id', '=', orgId);
      if (f.start !== undefined) q = q.where('start_time', '>=', f.start);
      if (f.end !== undefined) q = q.where('start_time', '<=', f.end);
      if (f.severity) q = q.where('level', '=', f.severity);
      if (f.resourceId) q = q.where('resource_id', '=', f.resourceId);
      const rows = await q.orderBy('start_time', 'desc').orderBy('alert_id').limit(f.limit).offset(f.offset).execute();
      return rows.map((r) => JSON.parse(r.data) as ResolvedAlert);
    },
    async clearHistory(trx: Kysely<Database>): Promise<void> {
      await trx.deleteFrom('alert_history').where('org_id', '=', orgId).execute();
    },
    async purge(now: number, historyDays: number, noticeDays: number): Promise<void> {
      await db
        .deleteFrom('alert_history')
        .where('org_id', '=', orgId)
        .where('resolved_time', '<', now - historyDays * 86_400_000)
        .execute();
      await db
        .deleteFrom('alert_notices')
        .where('org_id', '=', orgId)
        .where('handed_at', '<', now - noticeDays * 86_400_000)
        .execute();
    },

    async findIncident(alertId: string, startMs?: number): Promise<Incident | undefined> {
      let q = db
        .selectFrom('alert_incidents')
        .select('data')
        .where('org_id', '=', orgId)
        .where('alert_id', '=', alertId);
      if (startMs !== undefined) q = q.where('start_time', '=', startMs);
      const row = await q.orderBy('start_time', 'desc').limit(1).executeTakeFirst();
      return row ? (JSON.parse(row.data) as Incident) : undefined;
    },
    async incidentById(id: string): Promise<Incident | undefined> {
      const row = await db
        .selectFrom('alert_incidents')
        .select('data')
        .where('org_id', '=', orgId)
        .where('id', '=', id)
        .executeTakeFirst();
      return row ? (JSON.parse(row.data) as Incident) : undefined;
    },
    async listIncidents(resourceId: string | undefined, limit: number): Promise<Incident[]> {
      let q = db.selectFrom('alert_incidents').select('data').where('org_id', '=', orgId);
      if (resourceId) q = q.where('resource_id', '=', resourceId);
      const rows = await q.orderBy('start_time', 'desc').limit(limit).execute();
      return rows.map((r) => JSON.parse(r.data) as Incident);
    },
    async addIncidentEvent(trx: Kysely<Database>, incidentId: string, event: IncidentEvent): Promise<boolean> {
      const row = await trx
        .selectFrom('alert_incidents')
        .select(['data'])
        .where('org_id', '=', orgId)
        .where('id', '=', incidentId)
        .executeTakeFirst();
      if (!row) return false;
      const inc = JSON.parse(row.data) as Incident;
      inc.events = [...inc.events, event].slice(-MAX_INCIDENT_EVENTS);
      await trx
        .updateTable('alert_incidents')
        .set({ data: JSON.stringify(inc) })
        .where('org_id', '=', orgId)
        .where('id', '=', incidentId)
        .execute();
      return true;
    },

    /** Notices due for hand-over, oldest first. */
    async dueNotices(now: number, limit: number) {
      return db
        .selectFrom('alert_notices')
        .selectAll()
        .where('org_id', '=', orgId)
        .where('handed_at', 'is', null)
        .where('due_at', '<=', now)
        .orderBy('seq')
        .limit(limit)
        .execute();
    },
    async markHanded(seqs: number[], now: number): Promise<void> {
      if (seqs.length > 0)
        await db.updateTable('alert_notices').set({ handed_at: now }).where('seq', 'in', seqs).execute();
    },
    async countPendingNotices(): Promise<number> {
      const r = await db
        .selectFrom('alert_notices')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('org_id', '=', orgId)
        .where('handed_at', 'is', null)
        .executeTakeFirstOrThrow();
      return Number(r.n);
    },
  };
}

export type AlertsStore = ReturnType<typeof createAlertsStore>;

async function writeHistory(trx: Kysely<Database>, orgId: string, h: Batch['history'][number]): Promise<void> {
  const data = JSON.stringify(h.resolvedMs === undefined ? h.alert : { ...h.alert, resolvedTime: iso(h.resolvedMs) });
  if (h.kind === 'open') {
    await trx
      .insertInto('alert_history')
      .values({
        org_id: orgId,
        alert_id: h.alert.id,
        start_time: h.startMs,
        level: h.alert.level,
        resource_id: h.alert.resourceId,
        resolved_time: h.resolvedMs ?? null,
        data,
      })
      .onConflict((oc) =>
        oc
          .columns(['org_id', 'alert_id', 'start_time'])
          .doUpdateSet({ data, level: h.alert.level, resolved_time: h.resolvedMs ?? null }),
      )
      .execute();
    return;
  }
  await trx
    .updateTable('alert_history')
    .set({ data, level: h.alert.level, resolved_time: h.resolvedMs ?? null })
    .where('org_id', '=', orgId)
    .where('alert_id', '=', h.alert.id)
    .where('start_time', '=', h.startMs)
    .execute();
}

async function writeIncident(trx: Kysely<Database>, orgId: string, i: Batch['incidents'][number]): Promise<void> {
  if (i.kind === 'open') {
    const a: AlertRecord = i.alert;
    const inc: Incident = {
      id: timeOrderedId(),
      alertIdentifier: a.id,
      alertType: a.type,
      level: a.level,
      resourceId: a.resourceId,
      resourceName: a.resourceName,
      resourceType: i.resourceType,
      node: a.node,
      instance: a.instance,
      message: a.message,
      status: 'open',
      openedAt: a.startTime,
      acknowledged: false,
      events: [i.event],
    };
    await trx
      .insertInto('alert_incidents')
      .values({
        org_id: orgId,
        id: inc.id,
        alert_id: a.id,
        start_time: i.startMs,
        resource_id: a.resourceId,
        status: 'open',
        data: JSON.stringify(inc),
      })
      .execute();
    return;
  }
  const row = await trx
    .selectFrom('alert_incidents')
    .select(['id', 'data'])
    .where('org_id', '=', orgId)
    .where('alert_id', '=', i.alertId)
    .where('start_time', '=', i.startMs)
    .executeTakeFirst();
  if (!row) return;
  const inc = { ...(JSON.parse(row.data) as Incident), ...i.patch };
  inc.events = [...inc.events, i.event].slice(-MAX_INCIDENT_EVENTS);
  await trx
    .updateTable('alert_incidents')
    .set({ data: JSON.stringify(inc), status: inc.status })
    .where('org_id', '=', orgId)
    .where('id', '=', row.id)
    .execute();
}
