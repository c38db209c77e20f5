import type { Kysely, Selectable } from 'kysely';
import { type Database, type Db, DEFAULT_ORG } from '../../platform/db/index.js';
import type { Notice } from './notifications.model.js';
import { createSqliteQueue } from './notifications.queue.sqlite.js';
import {
  ANNOUNCING,
  channelKey,
  type Occurrence,
  type ReceiptChanges,
  readReceipts,
  writeReceipts,
} from './notifications.receipts.js';

export type QueueRow = Selectable<Database['notification_queue']>;
export type QueueStatus = 'pending' | 'sending' | 'sent' | 'failed' | 'dlq';
export type AttemptRow = Selectable<Database['notification_attempts']>;

/** A row the worker claimed: what sending and recording its outcome need, the notice already parsed. */
export type ClaimedRow = Pick<
  QueueRow,
  | 'id'
  | 'event_id'
  | 'event'
  | 'alert_id'
  | 'channel'
  | 'channel_id'
  | 'group_id'
  | 'attempts'
  | 'max_attempts'
  | 'next_attempt_at'
  | 'last_error'
  | 'last_status_code'
> & {
  notice: Notice;
  /** SQLite rowid, when claimed there: the outcome is written by it. */
  seq?: number;
};

/** The end of one attempt: the row's new state, the history entry and the health change. */
export interface Completion {
  id: string;
  /** The claimed row's `seq`, when it has one. */
  seq?: number;
  status: QueueStatus;
  nextAttemptAt: number;
  lastError: string;
  lastStatusCode: number;
  /** Set when the attempt was only deferred (rate limit, hourly cap): it does not count and is not history. */
  deferred?: boolean;
  attempt?: Omit<AttemptRow, 'org_id'>;
}

/** See `announcements`. */
export interface AnnouncementState {
  /** Set while one is still queued or being sent: the latest due time among them. */
  waitingUntil?: number;
  delivered: boolean;
  deadLettered: boolean;
  abandoned: boolean;
}

const CHUNK = 50;
// Notices queued by this process, by row id, until claimed: the worker then neither reads nor parses them
// again. Bounded; rows it misses (other processes, restarts, retries, overflow) are read from the database.
const LIVE_MAX = 20_000;
// Rows queued here already claimed, waiting for the worker's next claim (see `enqueue`). Bounded likewise.
const HANDED_MAX = 20_000;
const chunks = <T>(xs: readonly T[], n = CHUNK): T[][] =>
  Array.from({ length: Math.ceil(xs.length / n) }, (_, i) => xs.slice(i * n, i * n + n));

export function createQueueStore(handle: Db) {
  const db = handle.db;
  const org = DEFAULT_ORG;
  const lite = handle.sqlite ? createSqliteQueue(handle.sqlite, org) : undefined;
  const live = new Map<string, Notice>();
  const take = (id: string): Notice | undefined => {
    const n = live.get(id);
    if (n) live.delete(id);
    return n;
  };
  const claimed = (r: QueueRow): ClaimedRow => ({ ...r, notice: take(r.id) ?? (JSON.parse(r.notice) as Notice) });
  const handed: ClaimedRow[] = [];

  async function insertRows(trx: Kysely<Database>, rows: Omit<QueueRow, 'org_id'>[]): Promise<void> {
    for (const part of chunks(rows)) {
      await trx
        .insertInto('notification_queue')
        .values(part.map((r) => ({ ...r, org_id: org })))
        .execute();
    }
  }

  /** Marks due rows (or the given ones) `sending` in the database and returns them. */
  async function claimStored(now: number, limit: number, ids?: readonly string[]): Promise<ClaimedRow[]> {
    if (!ids && lite?.available()) return lite.claim(now, limit, take);
    return db.transaction().execute(async (trx) => {
      let q = trx
        .selectFrom('notification_queue')
        .select('id')
        .where('org_id', '=', org)
        .where('status', '=', 'pending');
      q = ids ? q.where('id', 'in', ids.length ? [...ids] : ['']) : q.where('next_attempt_at', '<=', now);
      const picked = await q.orderBy('next_attempt_at').limit(limit).execute();
      if (picked.length === 0) return [];
      const out: ClaimedRow[] = [];
      for (const part of chunks(
        picked.map((p) => p.id),
        500,
      )) {
        const rows = await trx
          .updateTable('notification_queue')
          .set((eb) => ({ status: 'sending', attempts: eb('attempts', '+', 1), updated_at: now }))
          .where('id', 'in', part)
          .where('status', '=', 'pending')
          .returningAll()
          .execute();
        for (const r of rows) out.push(claimed(r));
      }
      return out;
    });
  }

  return {
    /**
     * All rows of one hand-over and the receipts they change in one transaction: either every notice x channel
     * is queued (and remembered for the recovery) or none. `notices[i]`, when given, is the notice of `rows[i]`
     * as an object, which the caller no longer changes; the rows are then handed over too.
     *
     * Such rows that are due now and not grouped are inserted already claimed (`sending`, attempt 1), as the
     * worker's claim would leave them, and the worker's next claim takes them from memory: one UPDATE per
     * notice less. A crash leaves them in `sending`, which the next start sends again, as for any claimed row.
     */
    async enqueue(
      rows: Omit<QueueRow, 'org_id'>[],
      receipts?: ReceiptChanges,
      notices?: readonly Notice[],
    ): Promise<void> {
      const now = rows[0]?.created_at ?? 0;
      const hand: number[] = [];
      if (notices)
        for (let i = 0; i < rows.length && handed.length + hand.length < HANDED_MAX; i++) {
          const r = rows[i]!;
          if (r.status !== 'pending' || r.group_id !== null || r.next_attempt_at > now) continue;
          r.status = 'sending';
          r.attempts += 1;
          hand.push(i);
        }
      let seqs: number[] | undefined;
      if (lite?.available()) seqs = lite.enqueue(rows, receipts, now);
      else
        await db.transaction().execute(async (trx) => {
          await insertRows(trx, rows);
          if (receipts) await writeReceipts(trx, org, receipts, now);
        });
      if (!notices) return;
      for (const i of hand) {
        const r = rows[i]!;
        handed.push({
          id: r.id,
          event_id: r.event_id,
          event: r.event,
          alert_id: r.alert_id,
          channel: r.channel,
          channel_id: r.channel_id,
          group_id: r.group_id,
          attempts: r.attempts,
          max_attempts: r.max_attempts,
          next_attempt_at: r.next_attempt_at,
          last_error: r.last_error,
          last_status_code: r.last_status_code,
          notice: notices[i]!,
          seq: seqs?.[i],
        });
      }
      for (let i = 0; i < rows.length && live.size < LIVE_MAX; i++)
        if (rows[i]!.status === 'pending') live.set(rows[i]!.id, notices[i]!);
    },

    /** Forgets remembered notices (nothing is waiting): rows queued but never claimed here cannot pin them. */
    forgetLive: () => live.clear(),

    /** Channel keys that were queued an announcement, per occurrence key. */
    receipts: (occurrences: readonly Occurrence[]) => readReceipts(db, org, occurrences),

    /** Latest due time of announcements still waiting (group window, backoff), per alert id and channel key. */
    async waitingAnnouncements(alertIds: readonly string[]): Promise<Map<string, number>> {
      const out = new Map<string, number>();
      for (const part of chunks([...new Set(alertIds)], 200)) {
        const rows = await db
          .selectFrom('notification_queue')
          .select(['alert_id', 'channel', 'channel_id', (eb) => eb.fn.max('next_attempt_at').as('due')])
          .where('org_id', '=', org)
          .where('alert_id', 'in', part)
          .where('status', 'in', ['pending', 'sending'])
          .where('event', 'in', [...ANNOUNCING])
          .groupBy(['alert_id', 'channel', 'channel_id'])
          .execute();
        for (const r of rows) out.set(`${r.alert_id}\u0000${channelKey(r.channel, r.channel_id)}`, Number(r.due));
      }
      return out;
    },

    /**
     * Where the announcements of one alert occurrence to one channel stand, from the rows queued since it
     * started: the latest due time of those still waiting or being sent, and whether any was delivered,
     * dead-lettered or given up (deleted from the dead-letter queue).
     */
    async announcements(
      alertId: string,
      channel: string,
      channelId: string,
      sinceMs: number,
    ): Promise<AnnouncementState> {
      const rows = await db
        .selectFrom('notification_queue')
        .select(['status', (eb) => eb.fn.max('next_attempt_at').as('due')])
        .where('org_id', '=', org)
        .where('alert_id', '=', alertId)
        .where('channel', '=', channel)
        .where('channel_id', '=', channelId)
        .where('event', 'in', [...ANNOUNCING])
        .where('created_at', '>=', sinceMs)
        .groupBy('status')
        .execute();
      const state: AnnouncementState = { delivered: false, deadLettered: false, abandoned: false };
      for (const r of rows) {
        if (r.status === 'sent') state.delivered = true;
        else if (r.status === 'dlq') state.deadLettered = true;
        else if (r.status === 'failed') state.abandoned = true;
        else if (r.status === 'pending' || r.status === 'sending')
          state.waitingUntil = Math.max(state.waitingUntil ?? 0, Number(r.due));
      }
      return state;
    },

    /** After a crash, rows a dead process was sending go out again (at-least-once, same event id). */
    async recoverSending(now: number): Promise<number> {
      // Rows handed over before the start are among them: they are claimed from the database now.
      handed.length = 0;
      const r = await db
        .updateTable('notification_queue')
        .set({ status: 'pending', next_attempt_at: now, updated_at: now })
        .where('org_id', '=', org)
        .where('status', '=', 'sending')
        .executeTakeFirst();
      return Number(r.numUpdatedRows);
    },

    /** Claims due rows (marks them `sending`) and returns them: rows handed over by `enqueue` first. */
    async claim(now: number, limit: number, ids?: readonly string[]): Promise<ClaimedRow[]> {
      if (ids || handed.length === 0) return claimStored(now, limit, ids);
      // Handed-over rows first, then due rows from the database (retries, other processes) to fill up.
      const out = handed.splice(0, limit);
      return out.length < limit ? out.concat(await claimStored(now, limit - out.length)) : out;
    },

    /** Writes the outcome of a batch of attempts and their history in one transaction. */
    async complete(done: readonly Completion[], now: number): Promise<void> {
      if (lite?.available()) return lite.complete(done, now);
      // Rows with the same outcome are updated together: a burst of successes is one statement, not one per row.
      const same = new Map<string, { c: Completion; ids: string[] }>();
      for (const c of done) {
        const key = JSON.stringify([
          c.status,
          c.status === 'sent' ? 0 : c.nextAttemptAt,
          c.lastError,
          c.lastStatusCode,
          !!c.deferred,
        ]);
        const g = same.get(key) ?? { c, ids: [] };
        g.ids.push(c.id);
        same.set(key, g);
      }
      return db.transaction().execute(async (trx) => {
        for (const { c, ids } of same.values()) {
          for (const part of chunks(ids, 500)) {
            await trx
              .updateTable('notification_queue')
              .set((eb) => ({
                status: c.status,
                next_attempt_at: c.status === 'sent' ? now : c.nextAttemptAt,
                last_error: c.lastError,
                last_status_code: c.lastStatusCode,
                updated_at: now,
                ...(c.deferred ? { attempts: eb('attempts', '-', 1) } : {}),
              }))
              .where('id', 'in', part)
              .execute();
          }
        }
        const attempts = done.flatMap((c) => (c.attempt ? [{ ...c.attempt, org_id: org }] : []));
        for (const part of chunks(attempts, 200)) await trx.insertInto('notification_attempts').values(part).execute();
      });
    },

    async nextDueAt(): Promise<number | undefined> {
      const r = await db
        .selectFrom('notification_queue')
        .select((eb) => eb.fn.min('next_attempt_at').as('at'))
        .where('org_id', '=', org)
        .where('status', '=', 'pending')
        .executeTakeFirst();
      return r?.at === null || r?.at === undefined ? undefined : Number(r.at);
    },

    async stats(): Promise<Record<QueueStatus, number>> {
      const rows = await db
        .selectFrom('notification_queue')
        .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
        .where('org_id', '=', org)
        .groupBy('status')
        .execute();
      const out: Record<QueueStatus, number> = { pending: 0, sending: 0, sent: 0, failed: 0, dlq: 0 };
      for (const r of rows) if (r.status in out) out[r.status as QueueStatus] = Number(r.n);
      return out;
    },

    byIds: (ids: readonly string[]) =>
      ids.length === 0
        ? Promise.resolve([] as QueueRow[])
        : db
            .selectFrom('notification_queue')
            .selectAll()
            .where('org_id', '=', org)
            .where('id', 'in', [...ids])
            .execute(),

    listStatus: (status: QueueStatus, limit: number) =>
      db
        .selectFrom('notification_queue')
        .selectAll()
        .where('org_id', '=', org)
        .where('status', '=', status)
        .orderBy('updated_at', 'desc')
        .limit(limit)
        .execute(),

    /** Moves one row to `to` only when it is in `from`; false when no such row. */
    async transition(id: string, from: QueueStatus, to: QueueStatus, now: number, resetAttempts: boolean) {
      const r = await db
        .updateTable('notification_queue')
        .set({ status: to, next_attempt_at: now, updated_at: now, ...(resetAttempts ? { attempts: 0 } : {}) })
        .where('org_id', '=', org)
        .where('id', '=', id)
        .where('status', '=', from)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },

    /** Queued rows of a deleted channel can never be sent: they fail with the reason. */
    async failChannel(channel: string, channelId: string, reason: string, now: number): Promise<void> {
      await db
        .updateTable('notification_queue')
        .set({ status: 'failed', last_error: reason, updated_at: now })
        .where('org_id', '=', org)
        .where('channel', '=', channel)
        .where('channel_id', '=', channelId)
        .where('status', 'in', ['pending', 'dlq'])
        .execute();
    },

    history: (limit: number) =>
      db
        .selectFrom('notification_attempts')
        .selectAll()
        .where('org_id', '=', org)
        .orderBy('at', 'desc')
        .limit(limit)
        .execute(),

    /** Retention: finished rows and history 7 days, dead letters and receipts 30 days. */
    async purge(now: number): Promise<void> {
      const day = 86_400_000;
      await db
        .deleteFrom('notification_queue')
        .where('org_id', '=', org)
        .where((eb) =>
          eb.or([
            eb.and([eb('status', 'in', ['sent', 'failed']), eb('updated_at', '<', now - 7 * day)]),
            eb.and([eb('status', '=', 'dlq'), eb('updated_at', '<', now - 30 * day)]),
          ]),
        )
        .execute();
      await db
        .deleteFrom('notification_attempts')
        .where('org_id', '=', org)
        .where('at', '<', now - 7 * day)
        .execute();
      // Refreshed by every reminder; an occurrence silent for 30 days gets no recovery.
      await db
        .deleteFrom('notification_receipts')
        .where('org_id', '=', org)
        .where('at', '<', now - 30 * day)
        .execute();
    },
  };
}

export type QueueStore = ReturnType<typeof createQueueStore>;
