import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/index.js';
import type { Notice } from './notifications.model.js';

/** One alert occurrence: the alert id and its start (an id is reused by the next occurrence). */
export interface Occurrence {
  alertId: string;
  startMs: number;
}

export interface Receipt extends Occurrence {
  channel: string;
  channelId: string;
  eventId: string;
}

/** What one hand-over changes besides queue rows: receipts gained, and occurrences whose recovery is queued. */
export interface ReceiptChanges {
  add: Receipt[];
  drop: Occurrence[];
}

/** Notices that tell a channel an alert is open; a channel that got one is owed the recovery. */
export const ANNOUNCING = new Set(['firing', 'reminder', 'escalated', 'flapping']);

export const occurrenceOf = (n: Notice): Occurrence => {
  const t = n.alert.startTime;
  const ms = typeof t === 'number' ? t : Date.parse(t);
  return { alertId: n.alert.id, startMs: Number.isNaN(ms) ? 0 : ms };
};

export const occurrenceKey = (o: Occurrence): string => `${o.alertId}\u0000${o.startMs}`;
export const channelKey = (channel: string, channelId: string): string => `${channel}\u0000${channelId}`;

const CHUNK = 200;

export async function writeReceipts(trx: Kysely<Database>, org: string, c: ReceiptChanges, now: number) {
  // One statement may not upsert a key twice (PostgreSQL refuses): when a hand-over holds two announcements
  // of one occurrence to one channel (a firing and its escalation), the later one stands, as it would row by row.
  const latest = new Map<string, Receipt>();
  for (const r of c.add) latest.set(`${occurrenceKey(r)}\u0000${channelKey(r.channel, r.channelId)}`, r);
  const add = [...latest.values()];
  for (let i = 0; i < add.length; i += CHUNK) {
    const part = add.slice(i, i + CHUNK).map((r) => ({
      org_id: org,
      alert_id: r.alertId,
      start_ms: r.startMs,
      channel: r.channel,
      channel_id: r.channelId,
      event_id: r.eventId,
      at: now,
    }));
    await trx
      .insertInto('notification_receipts')
      .values(part)
      .onConflict((oc) =>
        oc
          .columns(['org_id', 'alert_id', 'start_ms', 'channel', 'channel_id'])
          .doUpdateSet((eb) => ({ event_id: eb.ref('excluded.event_id'), at: now })),
      )
      .execute();
  }
  for (const o of c.drop)
    await trx
      .deleteFrom('notification_receipts')
      .where('org_id', '=', org)
      .where('alert_id', '=', o.alertId)
      .where('start_ms', '=', o.startMs)
      .execute();
}

/** Channel keys holding a receipt, per occurrence key. */
export async function readReceipts(
  db: Kysely<Database>,
  org: string,
  occurrences: readonly Occurrence[],
): Promise<Map<string, Set<string>>> {
  const out = new Map<string, Set<string>>();
  const ids = [...new Set(occurrences.map((o) => o.alertId))];
  for (let i = 0; i < ids.length; i += CHUNK) {
    const rows = await db
      .selectFrom('notification_receipts')
      .select(['alert_id', 'start_ms', 'channel', 'channel_id'])
      .where('org_id', '=', org)
      .where('alert_id', 'in', ids.slice(i, i + CHUNK))
      .execute();
    for (const r of rows) {
      const k = occurrenceKey({ alertId: r.alert_id, startMs: Number(r.start_ms) });
      const set = out.get(k) ?? new Set<string>();
      set.add(channelKey(r.channel, r.channel_id));
      out.set(k, set);
    }
  }
  return out;
}
