import type { ChannelKind } from '@svc/contract';
import { type Clock, type Logger, timeOrderedId } from '@svc/platform';
import { LoopScheduler, mapLimit, type Timers } from '../../platform/jobs/index.js';
import type { ChannelRegistry } from './notifications.channels.js';
import type { Notice } from './notifications.model.js';
import type { SendOutcome } from './notifications.outcome.js';
import { backoffMs, type DeliveryPolicy, HOUR_MS, SlidingWindows } from './notifications.policy.js';
import { pump } from './notifications.pump.js';
import type { ClaimedRow, Completion, QueueStore } from './notifications.queue.store.js';
import { occurrenceOf } from './notifications.receipts.js';
import type { NotificationStore } from './notifications.store.js';

export interface WorkerDeps {
  queue: QueueStore;
  store: NotificationStore;
  channels: ChannelRegistry;
  clock: Clock;
  timers: Timers;
  log: Logger;
  policy: () => DeliveryPolicy;
  random?: () => number;
}

/** One message: the rows of a group (or a single row) for one channel target. */
interface Message {
  rows: ClaimedRow[];
  notices: Notice[];
  channel: ChannelKind;
  channelId: string;
}

const KEY = 'notifications.delivery';
/** How soon a recovery waiting for an announcement being sent looks again. */
const RECHECK_MS = 1_000;
const IDLE_MS = 5_000;
// Events that count against the hourly cap; recoveries and tests always go out.
const capped = new Set(['firing', 'reminder', 'escalated', 'flapping']);

function toMessages(rows: readonly ClaimedRow[]): Message[] {
  const byKey = new Map<string, Message>();
  for (const r of rows) {
    const key = r.group_id ? `${r.channel}\u0000${r.channel_id}\u0000${r.group_id}` : r.id;
    const m = byKey.get(key) ?? { rows: [], notices: [], channel: r.channel as ChannelKind, channelId: r.channel_id };
    m.rows.push(r);
    m.notices.push(r.notice);
    byKey.set(key, m);
  }
  return [...byKey.values()];
}

/** Sends queued rows: claims due rows, groups, applies rate limits, sends, records the outcome durably. */
export function createDeliveryWorker(d: WorkerDeps) {
  const random = d.random ?? Math.random;
  const rate = new SlidingWindows();
  const hourly = new SlidingWindows();
  const scheduler = new LoopScheduler({
    clock: d.clock,
    timers: d.timers,
    concurrency: 2,
    onError: (key, err) => d.log.error({ err, key }, 'notification job failed'),
  });
  let dirty = false;
  let idleDelay = IDLE_MS;
  let lastPurge = Number.NEGATIVE_INFINITY;

  /** When a message may go: now, or later because of the target rate or the hourly cap. */
  function allowedAt(m: Message, now: number): number {
    const p = d.policy();
    const target = `${m.channel}:${m.channelId}`;
    const first = m.notices[0]!;
    if (p.maxPerHour > 0 && capped.has(first.event)) {
      const at = hourly.take(`${target}:${first.alert.id}`, p.maxPerHour, HOUR_MS, now);
      if (at > now) return at;
    }
    return rate.take(target, p.targetRate.limit, p.targetRate.windowMs, now);
  }

  function completionsFor(m: Message, out: SendOutcome, name: string, now: number): Completion[] {
    const p = d.policy();
    return m.rows.map((r) => {
      const attempts = r.attempts;
      let status: Completion['status'] = 'sent';
      let next = r.next_attempt_at;
      if (!out.ok) {
        const budgetLeft = attempts < r.max_attempts;
        if (r.event === 'test' && !budgetLeft) status = 'failed';
        else if (out.retryable && budgetLeft) {
          status = 'pending';
          next = now + Math.max(backoffMs(p, attempts, random), Math.min(out.retryAfterMs ?? 0, HOUR_MS));
        } else status = 'dlq';
      }
      const why = out.ok
        ? ''
        : `${out.error ?? 'failed'}${status === 'dlq' && out.retryable ? ` (gave up after ${attempts} attempts)` : ''}`;
      return {
        id: r.id,
        seq: r.seq,
        status,
        nextAttemptAt: next,
        lastError: why,
        lastStatusCode: out.status,
        attempt: {
          id: timeOrderedId(),
          at: now,
          channel: r.channel,
          channel_id: r.channel_id,
          name,
          event_id: r.event_id,
          event: r.event,
          alert_id: r.alert_id,
          attempt: attempts,
          status_code: out.status,
          duration_ms: out.durationMs,
          success: out.ok ? 1 : 0,
          error: out.ok ? '' : (out.error ?? ''),
        },
      };
    });
  }

  /** Puts a message back without counting an attempt: to wait (pending), held (dlq) or given up (failed). */
  const putBack = (m: Message, status: 'pending' | 'dlq' | 'failed', at: number, why?: string): Completion[] =>
    m.rows.map((r) => ({
      id: r.id,
      seq: r.seq,
      status,
      nextAttemptAt: at,
      lastError: why ?? r.last_error,
      lastStatusCode: r.last_status_code,
      deferred: true,
    }));

  /**
   * A recovery follows its alert's announcements to the same channel. Routing already queued it behind those
   * waiting at the time, but a failed send moves an announcement later again: so while one is still queued or
   * being sent, the recovery waits for it. If none reached the channel, the recovery is not sent: a receiver is
   * never told that an alert it never saw has recovered. It is dead-lettered with a dead-lettered announcement
   * (retried together, the announcement goes first) and given up with one deleted from the dead-letter queue.
   */
  async function recoveryHold(m: Message, now: number): Promise<Completion[] | undefined> {
    const r = m.rows[0]!;
    const a = await d.queue.announcements(r.alert_id, r.channel, r.channel_id, occurrenceOf(r.notice).startMs);
    if (a.waitingUntil !== undefined) return putBack(m, 'pending', Math.max(a.waitingUntil + 1, now + RECHECK_MS));
    if (a.delivered) return undefined;
    if (a.deadLettered)
      return putBack(
        m,
        'dlq',
        now,
        'Held back: the announcement of this alert to this channel is in the dead-letter queue. Retry both (the recovery follows the announcement) or delete both.',
      );
    if (a.abandoned)
      return putBack(
        m,
        'failed',
        now,
        'Not sent: the announcement of this alert never reached this channel (it was deleted from the dead-letter queue).',
      );
    return undefined;
  }

  async function sendOne(m: Message, signal?: AbortSignal): Promise<{ done: Completion[]; out?: SendOutcome }> {
    const now = d.clock.now();
    // Recoveries are never grouped: a recovery message is one row.
    const held = m.rows[0]!.event === 'resolved' ? await recoveryHold(m, now) : undefined;
    if (held) return { done: held };
    const at = allowedAt(m, now);
    if (at > now) return { done: putBack(m, 'pending', at) };
    const impl = d.channels[m.channel];
    let out: SendOutcome;
    try {
      out = await impl.send(m.channelId, m.notices, signal);
    } catch (err) {
      const e = err as Error;
      out = { ok: false, status: 0, response: '', error: e.message, retryable: e.name !== 'SsrfError', durationMs: 0 };
    }
    const name = (await impl.name(m.channelId).catch(() => undefined)) ?? m.channelId;
    if (d.log.isLevelEnabled('debug'))
      d.log.debug(
        {
          event: 'webhook.delivery',
          channel: m.channel,
          target: m.channelId,
          eventId: m.rows[0]!.event_id,
          notices: m.rows.length,
          attempt: m.rows[0]!.attempts,
          ok: out.ok,
          status: out.status,
          ms: out.durationMs,
          error: out.error,
        },
        'webhook.delivery',
      );
    return { done: completionsFor(m, out, name, d.clock.now()), out };
  }

  interface Sent {
    m: Message;
    done: Completion[];
    out?: SendOutcome;
  }

  /** Writes the outcomes of settled sends and folds them into channel health. */
  async function record(results: readonly Sent[]): Promise<void> {
    const now = d.clock.now();
    await d.queue.complete(
      results.flatMap((r) => r.done),
      now,
    );
    const health = new Map<string, { ok: boolean; at: number; error: string }[]>();
    for (const { m, out } of results) {
      if (!out) continue;
      const key = `${m.channel}\u0000${m.channelId}`;
      const list = health.get(key) ?? [];
      list.push({ ok: out.ok, at: now, error: out.error ?? '' });
      health.set(key, list);
    }
    await d.store.recordHealth(health);
  }

  const send = async (m: Message, signal?: AbortSignal): Promise<Sent> => ({ m, ...(await sendOne(m, signal)) });

  /** Sends claimed rows and persists every outcome; returns the outcome per row id. */
  async function dispatch(rows: readonly ClaimedRow[], signal?: AbortSignal): Promise<Map<string, SendOutcome>> {
    const results = await mapLimit(toMessages(rows), d.policy().concurrency, (m) => send(m, signal));
    await record(results);
    const byRow = new Map<string, SendOutcome>();
    for (const r of results) if (r.out) for (const row of r.m.rows) byRow.set(row.id, r.out);
    return byRow;
  }

  /** Claimed rows that were never sent go back to pending, their claim not counted as an attempt. */
  async function release(messages: readonly Message[]): Promise<void> {
    const now = d.clock.now();
    const done = messages.flatMap((m) =>
      m.rows.map((r) => ({
        id: r.id,
        seq: r.seq,
        status: 'pending' as const,
        nextAttemptAt: now,
        lastError: r.last_error,
        lastStatusCode: r.last_status_code,
        deferred: true,
      })),
    );
    await d.queue.complete(done, now);
  }

  async function drain(signal: AbortSignal): Promise<void> {
    dirty = false;
    const p = d.policy();
    const window = Math.max(1, p.concurrency);
    await pump<Message, Sent>({
      concurrency: window,
      lowWater: window,
      claimSize: Math.max(1, Math.min(p.batchSize, 2 * window)),
      claim: async (limit) => toMessages(await d.queue.claim(d.clock.now(), limit)),
      send: (m) => send(m, signal),
      record: (results) =>
        record(results).catch((err: unknown) => {
          d.log.error({ err, rows: results.length }, 'notifications: recording delivery outcomes failed');
          throw err;
        }),
      release,
      flushAt: 256,
      flushAfterMs: 200,
      now: () => d.clock.now(),
      signal,
    });
    const now = d.clock.now();
    if (now - lastPurge >= HOUR_MS) {
      lastPurge = now;
      await d.queue.purge(now);
      rate.prune(now);
      hourly.prune(now);
    }
    const due = await d.queue.nextDueAt();
    if (due === undefined) d.queue.forgetLive();
    idleDelay = due === undefined ? IDLE_MS : Math.min(IDLE_MS, Math.max(0, due - d.clock.now()));
  }

  return {
    async start(): Promise<void> {
      const recovered = await d.queue.recoverSending(d.clock.now());
      if (recovered > 0)
        d.log.warn({ rows: recovered }, 'notifications: resending deliveries interrupted by a restart');
      scheduler.upsert(KEY, { run: drain, nextDelay: () => (dirty ? 0 : idleDelay) }, 0);
    },
    /** New rows are waiting: run now (or right after the current round). */
    kick(): void {
      dirty = true;
      if (scheduler.entries().some((e) => e.key === KEY && !e.running)) void scheduler.trigger(KEY);
    },
    /**
     * Runs a round that starts now and waits for it (tests, and callers that need the result). A round already
     * running may have claimed before the caller's change, so it is waited for and one more runs.
     */
    async runNow(): Promise<void> {
      if (scheduler.entries().some((e) => e.key === KEY && e.running)) await scheduler.trigger(KEY);
      await scheduler.trigger(KEY);
    },
    /** Claims and sends exactly these rows now, ignoring their due time: the test endpoint's path. */
    async processIds(ids: readonly string[]): Promise<Map<string, SendOutcome>> {
      const rows = await d.queue.claim(d.clock.now(), ids.length, ids);
      return rows.length ? dispatch(rows) : new Map();
    },
    stop: () => scheduler.stop(),
  };
}

export type DeliveryWorker = ReturnType<typeof createDeliveryWorker>;
