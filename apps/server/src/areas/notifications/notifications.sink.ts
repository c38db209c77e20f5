import { randomUUID } from 'node:crypto';
import type { ChannelKind } from '@svc/contract';
import type { Clock } from '@svc/platform';
import type { ChannelRegistry } from './notifications.channels.js';
import type { Notice } from './notifications.model.js';
import type { DeliveryPolicy } from './notifications.policy.js';
import type { QueueRow, QueueStore } from './notifications.queue.store.js';

export interface NoticeSink {
  /** Queues every notice for every enabled channel, durably, before returning. */
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
      id: randomUUID(),
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

  async function fanOut(notices: readonly Notice[], opts: { maxAttempts: number; dueAt?: number }): Promise<Row[]> {
    const now = d.clock.now();
    const rows: Row[] = [];
    for (const kind of Object.keys(d.channels) as ChannelKind[]) {
      const targets = await d.channels[kind].targets();
      for (const t of targets) for (const n of notices) rows.push(row(n, kind, t.id, now, opts));
    }
    return rows;
  }

  return {
    async deliver(notices: readonly Notice[]): Promise<void> {
      if (notices.length === 0) return;
      const rows = await fanOut(notices, { maxAttempts: d.policy().maxAttempts });
      if (rows.length === 0) return;
      await d.queue.enqueue(rows);
      d.kick();
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
