import type { Db } from '../../platform/db/index.js';
import type { Completion, QueueRow } from './notifications.queue.store.js';
import type { ReceiptChanges } from './notifications.receipts.js';

type Sqlite = NonNullable<Db['sqlite']>;
type Row = Omit<QueueRow, 'org_id'>;

const COLS = [
  'id',
  'org_id',
  'event_id',
  'event',
  'alert_id',
  'channel',
  'channel_id',
  'notice',
  'group_id',
  'status',
  'attempts',
  'max_attempts',
  'next_attempt_at',
  'last_error',
  'last_status_code',
  'created_at',
  'updated_at',
] as const;
const ATTEMPT_COLS = [
  'id',
  'org_id',
  'at',
  'channel',
  'channel_id',
  'name',
  'event_id',
  'event',
  'alert_id',
  'attempt',
  'status_code',
  'duration_ms',
  'success',
  'error',
] as const;
const insert = (table: string, cols: readonly string[]) =>
  `INSERT INTO ${table} (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`;

/**
 * The hot queue writes on SQLite as prepared statements in one synchronous transaction: Kysely compiles and
 * better-sqlite3 re-prepares every multi-row statement, which cost more than the rows themselves. Only used
 * when no other transaction is open on the connection (better-sqlite3 would nest it as a savepoint of that
 * one, whose rollback would take these writes along); the caller falls back to Kysely otherwise.
 */
export function createSqliteQueue(sqlite: Sqlite, org: string) {
  let s: ReturnType<typeof prepare> | undefined;
  // Prepared on first use: the tables exist only once migrations have run.
  function prepare() {
    return {
      insert: sqlite.prepare(insert('notification_queue', COLS)),
      receipt: sqlite.prepare(
        `${insert('notification_receipts', ['org_id', 'alert_id', 'start_ms', 'channel', 'channel_id', 'event_id', 'at'])}
         ON CONFLICT (org_id, alert_id, start_ms, channel, channel_id) DO UPDATE SET event_id = excluded.event_id, at = excluded.at`,
      ),
      dropReceipts: sqlite.prepare(
        'DELETE FROM notification_receipts WHERE org_id = ? AND alert_id = ? AND start_ms = ?',
      ),
      claim: sqlite.prepare(
        `UPDATE notification_queue SET status = 'sending', attempts = attempts + 1, updated_at = ?
         WHERE id IN (SELECT id FROM notification_queue WHERE org_id = ? AND status = 'pending' AND next_attempt_at <= ?
                      ORDER BY next_attempt_at LIMIT ?)
         RETURNING *`,
      ),
      complete: sqlite.prepare(
        `UPDATE notification_queue SET status = ?, next_attempt_at = ?, last_error = ?, last_status_code = ?,
         updated_at = ?, attempts = attempts - ? WHERE id = ?`,
      ),
      attempt: sqlite.prepare(insert('notification_attempts', ATTEMPT_COLS)),
    };
  }
  const st = () => {
    s ??= prepare();
    return s;
  };

  const enqueue = sqlite.transaction((rows: readonly Row[], receipts: ReceiptChanges | undefined, now: number) => {
    const q = st();
    for (const r of rows) q.insert.run(COLS.map((c) => (c === 'org_id' ? org : r[c])));
    for (const x of receipts?.add ?? [])
      q.receipt.run(org, x.alertId, x.startMs, x.channel, x.channelId, x.eventId, now);
    for (const o of receipts?.drop ?? []) q.dropReceipts.run(org, o.alertId, o.startMs);
  });

  const claim = sqlite.transaction((now: number, limit: number) => st().claim.all(now, org, now, limit) as QueueRow[]);

  const complete = sqlite.transaction((done: readonly Completion[], now: number) => {
    const q = st();
    for (const c of done) {
      q.complete.run(
        c.status,
        c.status === 'sent' ? now : c.nextAttemptAt,
        c.lastError,
        c.lastStatusCode,
        now,
        c.deferred ? 1 : 0,
        c.id,
      );
      const a = c.attempt;
      if (a) q.attempt.run(ATTEMPT_COLS.map((k) => (k === 'org_id' ? org : a[k])));
    }
  });

  return {
    /** False while another transaction holds the connection: use the Kysely path, which waits its turn. */
    available: () => !sqlite.inTransaction,
    enqueue,
    claim,
    complete,
  };
}
