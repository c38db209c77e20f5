import { randomUUID } from 'node:crypto';
import type { ChannelKind } from '@svc/contract';
import { type Clock, timeOrderedId } from '@svc/platform';
import type { ChannelRegistry } from './notifications.channels.js';
import type { Notice } from './notifications.model.js';
import type { DeliveryPolicy } from './notifications.policy.js';
import type { QueueRow, QueueStore } from './notifications.queue.store.js';
import { ANNOUNCING, channelKey, occurrenceKey, occurrenceOf, type ReceiptChanges } from './notifications.receipts.js';

export interface NoticeSink {
  /**
   * Queues every notice for every enabled channel, durably, before returning. The notices are handed over: the
   * caller must not change them afterwards (the worker sends the same objects, not copies).
   */
  deliver(notices: readonly Notice[]): Promise<void>;
}

interface SinkDeps {
  queue: QueueStore;
  channels: ChannelRegistry;
  clock: Clock;
  policy: () => DeliveryPolicy;
  kick: () => void;
}

type Row = Omit<QueueRow, 'org_id'>;

/** Turns notices into queue rows (notice x channel); the worker is the only thing that sends. */
export function createSink(d: SinkDeps) {
  // Open groups per channel target: firing notices join the open group until its window closes.
  const groups = new Map<string, { id: string; releaseAt: number }>();

  function groupFor(target: string, now: number): { id: string; releaseAt: number } {
    const open = groups.get(target);
    if (open && open.releaseAt > now) return open;
    const g = { id: randomUUID(), releaseAt: now + d.policy().groupWindowMs };
    groups.set(target, g);
    return g;
  }

  function row(
    n: Notice,
    channel: ChannelKind,
    channelId: string,
    now: number,
    opts: { maxAttempts: number; dueAt?: number },
  ): Row {
    const window = d.policy().groupWindowMs;
    // Only new firings are grouped: a recovery must never wait behind or vanish into a batch.
    const g = window > 0 && n.event === 'firing' ? groupFor(`${channel}:${channelId}`, now) : undefined;
    return {
      id: timeOrderedId(),
      event_id: n.eventId,
      event: n.event,
      alert_id: n.alert.id,
      channel,
      channel_id: channelId,
      notice: JSON.stringify(n),
      group_id: g?.id ?? null,
      status: 'pending',
      attempts: 0,
      max_attempts: opts.maxAttempts,
      next_attempt_at: opts.dueAt ?? g?.releaseAt ?? now,
      last_error: '',
      last_status_code: 0,
      created_at: now,
      updated_at: now,
    };
  }

  async function enabledTargets(): Promise<Array<{ kind: ChannelKind; id: string }>> {
    const out: Array<{ kind: ChannelKind; id: string }> = [];
    for (const kind of Object.keys(d.channels) as ChannelKind[])
      for (const t of await d.channels[kind].targets()) out.push({ kind, id: t.id });
    return out;
  }

  async function fanOut(notices: readonly Notice[], opts: { maxAttempts: number; dueAt?: number }): Promise<Row[]> {
    const now = d.clock.now();
    const rows: Row[] = [];
    for (const t of await enabledTargets()) for (const n of notices) rows.push(row(n, t.kind, t.id, now, opts));
    return rows;
  }

  /**
   * Live notices: announcements go to every enabled channel and leave a receipt per channel; a recovery goes to
   * the enabled channels holding a receipt for its occurrence (or to all, when the notice says so), never before
   * an announcement of the same alert still waiting on that channel, and uses the receipts up.
   */
  async function route(notices: readonly Notice[]): Promise<{ rows: Row[]; of: Notice[]; receipts: ReceiptChanges }> {
    const now = d.clock.now();
    const maxAttempts = d.policy().maxAttempts;
    const targets = await enabledTargets();
    const recoveries = notices.filter((n) => n.event === 'resolved');
    const held = recoveries.length ? await d.queue.receipts(recoveries.map(occurrenceOf)) : new Map();
    const waiting = recoveries.length
      ? await d.queue.waitingAnnouncements(recoveries.map((n) => n.alert.id))
      : new Map();
    const rows: Row[] = [];
    const of: Notice[] = [];
    const receipts: ReceiptChanges = { add: [], drop: [] };
    for (const n of notices) {
      const occ = occurrenceOf(n);
      const key = recoveries.length > 0 ? occurrenceKey(occ) : '';
      if (n.event === 'resolved') {
        const got: Set<string> = held.get(key) ?? new Set();
        for (const t of targets) {
          const ck = channelKey(t.kind, t.id);
          if (n.routing !== 'all-channels' && !got.has(ck)) continue;
          const wait: number | undefined = waiting.get(`${n.alert.id}\u0000${ck}`);
          rows.push(
            row(n, t.kind, t.id, now, { maxAttempts, dueAt: wait !== undefined && wait > now ? wait : undefined }),
          );
          of.push(n);
        }
        held.delete(key);
        receipts.drop.push(occ);
        continue;
      }
      const announces = ANNOUNCING.has(n.event);
      // Only a recovery later in this batch reads what this announcement holds and leaves waiting.
      const track = announces && recoveries.length > 0;
      const got: Set<string> | undefined = track ? (held.get(key) ?? new Set()) : undefined;
      for (const t of targets) {
        const r = row(n, t.kind, t.id, now, { maxAttempts });
        rows.push(r);
        of.push(n);
        if (!announces) continue;
        receipts.add.push({ ...occ, channel: t.kind, channelId: t.id, eventId: n.eventId });
        if (!track) continue;
        const ck = channelKey(t.kind, t.id);
        got?.add(ck);
        const wk = `${n.alert.id}\u0000${ck}`;
        waiting.set(wk, Math.max(waiting.get(wk) ?? 0, r.next_attempt_at));
      }
      if (track) held.set(key, got);
    }
    return { rows, of, receipts };
  }

  return {
    async deliver(notices: readonly Notice[]): Promise<void> {
      if (notices.length === 0) return;
      const { rows, of, receipts } = await route(notices);
      if (rows.length === 0 && receipts.add.length === 0 && receipts.drop.length === 0) return;
      await d.queue.enqueue(rows, receipts, of);
      if (rows.length) d.kick();
    },
    /** Rows for a test notice: one attempt, held back from the background worker so the caller sends them. */
    async enqueueTest(notice: Notice): Promise<Row[]> {
      const rows = await fanOut([notice], { maxAttempts: 1, dueAt: d.clock.now() + 60_000 });
      for (const r of rows) r.event_id = `${notice.eventId}:${r.channel}:${r.channel_id}`;
      if (rows.length) await d.queue.enqueue(rows);
      return rows;
    },
  };
}
