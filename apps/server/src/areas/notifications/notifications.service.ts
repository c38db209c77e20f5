import type { channelHealth, channelTestResult, dlqEntry, historyEntry } from '@svc/contract';
import { conflict, notFound } from '@svc/platform';
import type { z } from 'zod';
import type { AreaDeps } from '../area.js';
import type { ChannelRegistry } from './notifications.channels.js';
import { testNotice } from './notifications.model.js';
import type { QueueStore } from './notifications.queue.store.js';
import type { createSink } from './notifications.sink.js';
import type { NotificationStore } from './notifications.store.js';
import type { DeliveryWorker } from './notifications.worker.js';

type Kind = z.infer<typeof channelTestResult>['channel'];
const iso = (ms: number | null) => (ms === null ? null : new Date(Number(ms)).toISOString());

export function createNotificationService(
  deps: AreaDeps,
  p: {
    queue: QueueStore;
    store: NotificationStore;
    channels: ChannelRegistry;
    worker: DeliveryWorker;
    sink: ReturnType<typeof createSink>;
  },
) {
  const nameOf = async (channel: string, id: string) => (await p.channels[channel as Kind]?.name(id)) ?? id;
  return {
    /** A test notice to every enabled channel through the queue and the worker, as live notices travel. */
    async testAll(): Promise<{ results: z.input<typeof channelTestResult>[] }> {
      const rows = await p.sink.enqueueTest(testNotice(deps.clock.now()));
      const outcomes = await p.worker.processIds(rows.map((r) => r.id));
      const results = await Promise.all(
        rows.map(async (r) => {
          const o = outcomes.get(r.id);
          return {
            channel: r.channel as Kind,
            id: r.channel_id,
            name: await nameOf(r.channel, r.channel_id),
            success: o?.ok ?? false,
            status: o?.status ?? 0,
            error: o ? o.error : 'not sent (claimed elsewhere)',
            eventId: r.event_id,
          };
        }),
      );
      return { results };
    },
    async history(limit: number): Promise<z.input<typeof historyEntry>[]> {
      return (await p.queue.history(limit)).map((a) => ({
        id: a.id,
        timestamp: new Date(Number(a.at)).toISOString(),
        channel: a.channel as Kind,
        channelId: a.channel_id,
        name: a.name,
        eventId: a.event_id,
        event: a.event,
        alertId: a.alert_id,
        attempt: a.attempt,
        statusCode: a.status_code,
        durationMs: a.duration_ms,
        success: a.success === 1,
        ...(a.error ? { error: a.error } : {}),
      }));
    },
    async deadLetters(limit: number): Promise<z.input<typeof dlqEntry>[]> {
      const rows = await p.queue.listStatus('dlq', limit);
      return Promise.all(
        rows.map(async (r) => ({
          id: r.id,
          channel: r.channel as Kind,
          channelId: r.channel_id,
          name: await nameOf(r.channel, r.channel_id),
          eventId: r.event_id,
          event: r.event,
          alertId: r.alert_id,
          attempts: r.attempts,
          maxAttempts: r.max_attempts,
          lastError: r.last_error,
          lastStatusCode: r.last_status_code,
          createdAt: new Date(Number(r.created_at)).toISOString(),
          updatedAt: new Date(Number(r.updated_at)).toISOString(),
        })),
      );
    },
    async retryDeadLetter(id: string) {
      if (!(await p.queue.transition(id, 'dlq', 'pending', deps.clock.now(), true))) await missing(id);
      p.worker.kick();
      return { success: true as const, id };
    },
    async deleteDeadLetter(id: string) {
      if (!(await p.queue.transition(id, 'dlq', 'failed', deps.clock.now(), false))) await missing(id);
      return { success: true as const, id };
    },
    stats: () => p.queue.stats(),
    async health() {
      const queue = await p.queue.stats();
      const rows = await p.store.listHealth();
      const channels: z.input<typeof channelHealth>[] = await Promise.all(
        rows.map(async (h) => ({
          channel: h.channel as Kind,
          id: h.channel_id,
          name: await nameOf(h.channel, h.channel_id),
          lastSuccessAt: iso(h.last_success_at),
          lastErrorAt: iso(h.last_error_at),
          lastError: h.last_error,
          consecutiveFailures: h.consecutive_failures,
        })),
      );
      return { healthy: queue.dlq === 0 && channels.every((c) => c.consecutiveFailures === 0), queue, channels };
    },
  };

  async function missing(id: string): Promise<never> {
    const [row] = await p.queue.byIds([id]);
    if (!row) throw notFound(`Dead letter ${id}`);
    throw conflict(`Delivery ${id} is ${row.status}, not in the dead-letter queue.`);
  }
}

export type NotificationService = ReturnType<typeof createNotificationService>;
