import type { Migration } from '@svc/platform';
import type { Kysely } from 'kysely';

/**
 * Which channels were queued an announcement (firing, reminder, escalation, flapping) of one alert occurrence:
 * a recovery goes to exactly those. Written in the enqueue transaction, removed when the recovery is queued.
 */
export const m009NotificationReceipts: Migration = {
  id: 9,
  name: 'notification-receipts',
  async up(db) {
    await db.schema
      .createTable('notification_receipts')
      .addColumn('org_id', 'text', (c) => c.notNull())
      .addColumn('alert_id', 'text', (c) => c.notNull())
      .addColumn('start_ms', 'bigint', (c) => c.notNull())
      .addColumn('channel', 'text', (c) => c.notNull())
      .addColumn('channel_id', 'text', (c) => c.notNull())
      .addColumn('event_id', 'text', (c) => c.notNull())
      .addColumn('at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('notification_receipts_pk', ['org_id', 'alert_id', 'start_ms', 'channel', 'channel_id'])
      .execute();
    await db.schema
      .createIndex('notification_receipts_time')
      .on('notification_receipts')
      .columns(['org_id', 'at'])
      .execute();
    await backfill(db as Kysely<QueueOnly>);
  },
};

interface QueueOnly {
  notification_queue: {
    org_id: string;
    event: string;
    event_id: string;
    channel: string;
    channel_id: string;
    notice: string;
    created_at: number;
  };
  notification_receipts: {
    org_id: string;
    alert_id: string;
    start_ms: number;
    channel: string;
    channel_id: string;
    event_id: string;
    at: number;
  };
}

/** Alerts open at upgrade time: the queue rows still kept (7 days) say which channels were told. */
async function backfill(db: Kysely<QueueOnly>): Promise<void> {
  const rows = await db
    .selectFrom('notification_queue')
    .select(['org_id', 'event', 'event_id', 'channel', 'channel_id', 'notice', 'created_at'])
    .where('event', 'in', ['firing', 'reminder', 'escalated', 'flapping', 'resolved'])
    .orderBy('created_at')
    .execute();
  const byOccurrence = new Map<string, Map<string, QueueOnly['notification_receipts']>>();
  for (const r of rows) {
    const alert = (JSON.parse(r.notice) as { alert?: { id?: string; startTime?: string | number } }).alert;
    const start = typeof alert?.startTime === 'number' ? alert.startTime : Date.parse(String(alert?.startTime));
    if (!alert?.id || Number.isNaN(start)) continue;
    const occurrence = `${r.org_id}\u0000${alert.id}\u0000${start}`;
    if (r.event === 'resolved') {
      byOccurrence.delete(occurrence);
      continue;
    }
    const channels = byOccurrence.get(occurrence) ?? new Map();
    channels.set(`${r.channel}\u0000${r.channel_id}`, {
      org_id: r.org_id,
      alert_id: alert.id,
      start_ms: start,
      channel: r.channel,
      channel_id: r.channel_id,
      event_id: r.event_id,
      at: Number(r.created_at),
    });
    byOccurrence.set(occurrence, channels);
  }
  const all = [...byOccurrence.values()].flatMap((m) => [...m.values()]);
  for (let i = 0; i < all.length; i += 200)
    await db
      .insertInto('notification_receipts')
      .values(all.slice(i, i + 200))
      .execute();
}
