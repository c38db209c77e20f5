import type { Db } from '../../platform/db/index.js';
import type { Notice } from './notifications.model.js';
import type { ClaimedRow, Completion, QueueRow } from './notifications.queue.store.js';
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
const CLAIMED = [
  'rowid AS seq',
  'id',
  'event_id',
  'event',
  'alert_id',
  'channel',
  'channel_id',
  'group_id',
  'attempts',
  'max_attempts',
  'next_attempt_at',
  'last_error',
  'last_status_code',
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
      // By rowid: the due index yields it without a table read, and the update needs no primary-key lookup.
      // The notice is not returned: the process that queued it usually still holds it (see `live`).
      claim: sqlite.prepare(
        `UPDATE notification_queue SET status = 'sending', attempts = attempts + 1, updated_at = ?
         WHERE rowid IN (SELECT rowid FROM notification_queue
                         WHERE org_id = ? AND status = 'pending' AND next_attempt_at <= ?
                         ORDER BY next_attempt_at LIMIT ?)
         RETURNING ${CLAIMED.join(', ')}`,
      ),
      notice: sqlite.prepare('SELECT notice FROM notification_queue WHERE rowid = ?').pluck(),
      complete: sqlite.prepare(
        `UPDATE notification_queue SET status = ?, next_attempt_at = ?, last_error = ?, last_status_code = ?,
         updated_at = ?, attempts = attempts - ? WHERE id = ?`,
      ),
      // The id check keeps a stale rowid (renumbered by a VACUUM since the claim) from touching another row.
      completeSeq: sqlite.prepare(
        `UPDATE notification_queue SET status = ?, next_attempt_at = ?, last_error = ?, last_status_code = ?,
         updated_at = ?, attempts = attempts - ? WHERE rowid = ? AND id = ?`,
      ),
      attempt: sqlite.prepare(insert('notification_attempts', ATTEMPT_COLS)),
    };
  }
  const st = () => {
    s ??= prepare();
    return s;
  };

  /** Returns the rowid of each row, in order. */
  const enqueue = sqlite.transaction((rows: readonly Row[], receipts: ReceiptChanges | undefined, now: number) => {
    const q = st();
    const seqs: number[] = [];
    // Positional, in COLS order: no per-row array of 17 values to build and collect.
    for (const r of rows) {
      const { lastInsertRowid } = q.insert.run(
        r.id,
        org,
        r.event_id,
        r.event,
        r.alert_id,
        r.channel,
        r.channel_id,
        r.notice,
        r.group_id,
        r.status,
        r.attempts,
        r.max_attempts,
        r.next_attempt_at,
        r.last_error,
        r.last_status_code,
        r.created_at,
        r.updated_at,
      );
      seqs.push(Number(lastInsertRowid));
    }
    for (const x of receipts?.add ?? [])
      q.receipt.run(org, x.alertId, x.startMs, x.channel, x.channelId, x.eventId, now);
    for (const o of receipts?.drop ?? []) q.dropReceipts.run(org, o.alertId, o.startMs);
    return seqs;
  });

  /** `live` holds notices this process queued; the rest are read back from their rows. */
  const claim = sqlite.transaction((now: number, limit: number, live: (id: string) => Notice | undefined) => {
    const q = st();
    const rows = q.claim.all(now, org, now, limit) as Array<Omit<ClaimedRow, 'notice'> & { notice?: Notice }>;
    for (const r of rows) r.notice = live(r.id) ?? (JSON.parse(q.notice.get(r.seq) as string) as Notice);
    return rows as ClaimedRow[];
  });

  const complete = sqlite.transaction((done: readonly Completion[], now: number) => {
    const q = st();
    for (const c of done) {
      const next = c.status === 'sent' ? now : c.nextAttemptAt;
      const back = c.deferred ? 1 : 0;
      if (c.seq === undefined) q.complete.run(c.status, next, c.lastError, c.lastStatusCode, now, back, c.id);
      else q.completeSeq.run(c.status, next, c.lastError, c.lastStatusCode, now, back, c.seq, c.id);
      const a = c.attempt;
      if (a)
        q.attempt.run(
          a.id,
          org,
          a.at,
          a.channel,
          a.channel_id,
          a.name,
          a.event_id,
          a.event,
          a.alert_id,
          a.attempt,
          a.status_code,
          a.duration_ms,
          a.success,
          a.error,
        );
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
