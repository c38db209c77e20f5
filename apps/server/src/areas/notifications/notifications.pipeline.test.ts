import { webhookInput } from '@svc/contract';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { createNotificationsHarness, openDialectDb, sampleNotice, startReceiver } from '../../testing/notifications.js';
import type { Notice } from './notifications.model.js';

type Harness = Awaited<ReturnType<typeof createNotificationsHarness>>;
type Receiver = Awaited<ReturnType<typeof startReceiver>>;

const notice = (i: number, event: Notice['event'] = 'firing'): Notice => sampleNotice(i, event);

let h: Harness;
let rx: Receiver;
let closeDb: (() => Promise<void>) | undefined;
afterEach(async () => {
  await h?.close();
  await rx?.close();
  await closeDb?.();
});

let dialect: 'sqlite' | 'postgres' = 'sqlite';
async function setUp(respond: Parameters<typeof startReceiver>[0], policy = {}) {
  const { db, close } = await openDialectDb(dialect, inject('pgUrl'));
  closeDb = close;
  h = await createNotificationsHarness({ db, policy: { baseBackoffMs: 1000, maxAttempts: 3, ...policy } });
  rx = await startReceiver(respond);
  const secret = 'Bearer hunter2-header-secret';
  await h.area.webhooks.create(
    h.actor,
    webhookInput.parse({
      name: 'hook',
      url: `${rx.url}/hook`,
      headers: { Authorization: secret },
      signingSecret: 'sign-s3cret',
    }),
  );
}
const stats = () => h.area.service.stats();

// On SQLite the queue's hot writes are prepared statements; on PostgreSQL they go through Kysely.
describe.each(['sqlite', 'postgres'] as const)('delivery pipeline on %s', (d) => {
  beforeEach(() => {
    dialect = d;
  });

  it('retries a 500 with backoff and delivers with the same event id', async () => {
    await setUp((_r, n) => ({ status: n === 1 ? 500 : 204 }));
    await h.area.sink.deliver([notice(1)]);
    await h.area.worker.runNow();
    expect(rx.received).toHaveLength(1);
    expect(await stats()).toMatchObject({ pending: 1, sent: 0 });
    await h.timers.advance(500); // inside the backoff (1 s ±20%): nothing is sent
    expect(rx.received).toHaveLength(1);
    await h.timers.advance(800);
    await h.area.worker.runNow();
    expect(rx.received).toHaveLength(2);
    expect(rx.received[1]!.headers['x-svc-event-id']).toBe(rx.received[0]!.headers['x-svc-event-id']);
    expect(await stats()).toMatchObject({ pending: 0, sent: 1 });
    const hist = await h.area.service.history(10);
    expect(hist.map((x) => x.statusCode)).toEqual([204, 500]);
  });

  it('honours Retry-After on 429', async () => {
    await setUp((_r, n) => (n === 1 ? { status: 429, headers: { 'Retry-After': '30' } } : { status: 200 }));
    await h.area.sink.deliver([notice(1)]);
    await h.area.worker.runNow();
    await h.timers.advance(29_000);
    expect(rx.received).toHaveLength(1);
    await h.timers.advance(1_000);
    await h.area.worker.runNow();
    expect(rx.received).toHaveLength(2);
    expect(await stats()).toMatchObject({ sent: 1 });
  });

  it('does not retry a 400; the dead letter says why and carries no secrets; retry resets attempts', async () => {
    await setUp(() => ({ status: 400, body: 'bad payload' }));
    await h.area.sink.deliver([notice(1)]);
    await h.area.worker.runNow();
    await h.timers.advance(60_000);
    expect(rx.received).toHaveLength(1);
    const dlq = await h.area.service.deadLetters(10);
    expect(dlq).toHaveLength(1);
    expect(dlq[0]!.attempts).toBe(1);
    expect(dlq[0]!.lastError).toMatch(/HTTP 400 \(not retried.*bad payload/);
    expect(JSON.stringify(dlq)).not.toMatch(/hunter2|sign-s3cret/);
    rx.respond(() => ({ status: 204 }));
    await h.area.service.retryDeadLetter(dlq[0]!.id);
    await h.area.worker.runNow();
    expect(rx.received).toHaveLength(2);
    expect(await stats()).toMatchObject({ dlq: 0, sent: 1 });
    await expect(h.area.service.retryDeadLetter(dlq[0]!.id)).rejects.toMatchObject({ code: 'conflict' });
    await expect(h.area.service.retryDeadLetter('nope')).rejects.toMatchObject({ code: 'not_found' });
  });

  it('moves a row to the DLQ after the retry budget; delete drops it; health counts failures', async () => {
    await setUp(() => ({ status: 503 }));
    await h.area.sink.deliver([notice(1)]);
    for (let i = 0; i < 3; i++) {
      await h.area.worker.runNow();
      await h.timers.advance(10_000);
    }
    expect(rx.received).toHaveLength(3);
    const [dead] = await h.area.service.deadLetters(10);
    expect(dead!.lastError).toMatch(/gave up after 3 attempts/);
    const health = await h.area.service.health();
    expect(health.healthy).toBe(false);
    expect(health.channels[0]).toMatchObject({ channel: 'webhook', consecutiveFailures: 3, lastSuccessAt: null });
    await h.area.service.deleteDeadLetter(dead!.id);
    expect(await stats()).toMatchObject({ dlq: 0, failed: 1 });
    const lines = h.logLines().join('\n');
    expect(lines).toContain('webhook.delivery');
    expect(lines).not.toMatch(/hunter2|sign-s3cret/);
  });

  it('network errors are retried', async () => {
    await setUp(() => ({ status: 204 }));
    await rx.close();
    await h.area.sink.deliver([notice(1)]);
    await h.area.worker.runNow();
    const [att] = await h.area.service.history(1);
    expect(att).toMatchObject({ statusCode: 0, success: false });
    expect(att!.error).toMatch(/ECONNREFUSED/);
    expect(await stats()).toMatchObject({ pending: 1 });
  });

  it('a per-target rate limit delays sends and never drops them', async () => {
    await setUp(() => ({ status: 204 }), { targetRate: { limit: 2, windowMs: 1000 } });
    await h.area.sink.deliver([1, 2, 3, 4, 5].map((i) => notice(i)));
    await h.area.worker.runNow();
    expect(rx.received).toHaveLength(2);
    await h.timers.advance(1000);
    await h.area.worker.runNow();
    await h.timers.advance(1000);
    await h.area.worker.runNow();
    expect(rx.received).toHaveLength(5);
    expect(new Set(rx.received.map((r) => r.headers['x-svc-event-id'])).size).toBe(5);
    expect(await stats()).toMatchObject({ sent: 5, dlq: 0 });
  });

  it('the hourly cap defers repeats of one alert to the next hour', async () => {
    await setUp(() => ({ status: 204 }), { maxPerHour: 1 });
    await h.area.sink.deliver([notice(1), { ...notice(1, 'reminder') }]);
    await h.area.worker.runNow();
    expect(rx.received).toHaveLength(1);
    await h.timers.advance(3_600_000);
    await h.area.worker.runNow();
    expect(rx.received).toHaveLength(2);
  });

  it('groups firings within the window into one message; resolved notices go out on their own at once', async () => {
    await setUp(() => ({ status: 204 }), { groupWindowMs: 30_000 });
    await h.area.sink.deliver([notice(1), notice(2)]);
    await h.area.sink.deliver([{ ...notice(3, 'resolved'), routing: 'all-channels' }]);
    await h.area.worker.runNow();
    expect(rx.received).toHaveLength(1);
    expect(JSON.parse(rx.received[0]!.body).event).toBe('resolved');
    await h.timers.advance(10_000);
    await h.area.sink.deliver([notice(4)]);
    await h.timers.advance(20_000);
    await h.area.worker.runNow();
    expect(rx.received).toHaveLength(2);
    const grouped = JSON.parse(rx.received[1]!.body);
    expect(grouped.count).toBe(3);
    expect(grouped.alerts.map((a: { id: string }) => a.id)).toEqual(['a1', 'a2', 'a4']);
    expect(await stats()).toMatchObject({ sent: 4 });
  });

  it('notices due now are queued already claimed; stopped before sending them, the next start sends them', async () => {
    await setUp(() => ({ status: 204 }));
    await h.area.worker.stop();
    await h.area.sink.deliver([notice(5), notice(6)]);
    expect(await stats()).toMatchObject({ sending: 2, pending: 0 });
    const rows = await h.db.db.selectFrom('notification_queue').select(['status', 'attempts']).execute();
    expect(rows).toEqual([
      { status: 'sending', attempts: 1 },
      { status: 'sending', attempts: 1 },
    ]);
    const again = await createNotificationsHarness({ db: h.db, secretKey: h.secretKey });
    try {
      await again.area.worker.runNow();
    } finally {
      await again.close();
    }
    expect(rx.received.map((r) => r.headers['x-svc-event-id']).sort()).toEqual(['a5:firing', 'a6:firing']);
    expect(await stats()).toMatchObject({ sent: 2, sending: 0 });
  });

  it('after a crash, rows left in sending are sent again with the same event id', async () => {
    await setUp(() => ({ status: 204 }));
    await h.area.worker.stop(); // nothing sends: the rows stay as a killed process would leave them
    await h.area.sink.deliver([notice(7), notice(8)]);
    await h.db.db.updateTable('notification_queue').set({ status: 'sending', attempts: 1 }).execute();
    expect(rx.received).toHaveLength(0);
    const again = await createNotificationsHarness({ db: h.db, secretKey: h.secretKey });
    try {
      await again.area.worker.runNow();
    } finally {
      await again.close();
    }
    expect(rx.received.map((r) => r.headers['x-svc-event-id']).sort()).toEqual(['a7:firing', 'a8:firing']);
    expect(await stats()).toMatchObject({ sent: 2, sending: 0 });
  });
});
