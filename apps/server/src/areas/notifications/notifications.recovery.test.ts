import { webhookInput } from '@svc/contract';
import { migrate } from '@svc/platform';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { migrateServerDatabase, openServerDatabase } from '../../platform/db/index.js';
import { migrations } from '../../platform/db/migrations/index.js';
import {
  createNotificationsHarness,
  NOTICE_START,
  openDialectDb,
  sampleNotice,
  startReceiver,
} from '../../testing/notifications.js';
import type { Notice } from './notifications.model.js';

type Harness = Awaited<ReturnType<typeof createNotificationsHarness>>;
type Receiver = Awaited<ReturnType<typeof startReceiver>>;

// Event ids carry the occurrence's start: two occurrences of one alert are different notices.
const notice = (i: number, event: Notice['event'], extra: Partial<Notice> = {}, start = NOTICE_START): Notice =>
  sampleNotice(i, event, { eventId: `a${i}:${event}:${start}`, ...extra }, start);

let h: Harness;
let rx: Receiver;
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
});
/** Fake time passes in steps, the worker running after each, until `done` holds. */
async function runUntil(done: () => boolean, stepMs = 1000, steps = 30): Promise<void> {
  for (let i = 0; i < steps && !done(); i++) {
    await h.timers.advance(stepMs);
    await run();
  }
}

type Dialect = 'sqlite' | 'postgres';
let dialect: Dialect = 'sqlite';

async function setUp(policy = {}) {
  const { db, close } = await openDialectDb(dialect, inject('pgUrl'));
  closers.push(close);
  h = await createNotificationsHarness({ db, policy: { baseBackoffMs: 1000, maxAttempts: 3, ...policy } });
  rx = await startReceiver(() => ({ status: 204 }));
  // Closed in reverse: the harness before the database it runs on.
  closers.unshift(h.close, rx.close);
}
async function hook(name: string, enabled = true): Promise<string> {
  const w = await h.area.webhooks.create(
    h.actor,
    webhookInput.parse({ name, url: `${rx.url}/${name}`, service: 'generic', enabled }),
  );
  return String(w.id);
}
/** What each receiver path got, as `path event alertId`. */
const got = () =>
  rx.received.map((r) => {
    const b = JSON.parse(r.body);
    return `${r.url.slice(1)} ${b.event} ${b.alert.id}`;
  });
const run = () => h.area.worker.runNow();

describe.each(['sqlite', 'postgres'] as const)('recovery routing on %s', (d) => {
  beforeEach(() => {
    dialect = d;
  });

  it('a recovery goes only to the channels that got the alert, not to one disabled at the time', async () => {
    await setUp();
    await hook('a');
    const b = await hook('b', false);
    await h.area.sink.deliver([notice(1, 'firing')]);
    await run();
    await h.area.webhooks.update(h.actor, b, { enabled: true });
    await h.area.sink.deliver([notice(1, 'resolved')]);
    await run();
    expect(got()).toEqual(['a firing a1', 'a resolved a1']);
  });

  it('a channel added after the alert gets no recovery, unless routing is all-channels', async () => {
    await setUp();
    await hook('a');
    await h.area.sink.deliver([notice(1, 'firing'), notice(2, 'firing')]);
    await run();
    await hook('late');
    await h.area.sink.deliver([notice(1, 'resolved'), notice(2, 'resolved', { routing: 'all-channels' })]);
    await run();
    expect(got().sort()).toEqual(['a firing a1', 'a firing a2', 'a resolved a1', 'a resolved a2', 'late resolved a2']);
  });

  it('a channel disabled since the alert gets nothing queued (no dead letter)', async () => {
    await setUp();
    await hook('a');
    const b = await hook('b');
    await h.area.sink.deliver([notice(1, 'firing')]);
    await run();
    await h.area.webhooks.update(h.actor, b, { enabled: false });
    await h.area.sink.deliver([notice(1, 'resolved')]);
    await run();
    expect(got().sort()).toEqual(['a firing a1', 'a resolved a1', 'b firing a1']);
    expect(await h.area.service.stats()).toMatchObject({ sent: 3, dlq: 0, pending: 0 });
  });

  it('a reminder is a receipt too; receipts are per occurrence and used up by the recovery', async () => {
    await setUp();
    await hook('a');
    await h.area.sink.deliver([notice(1, 'firing')]);
    await run();
    await hook('late');
    await h.area.sink.deliver([notice(1, 'reminder')]);
    await h.area.sink.deliver([notice(1, 'resolved')]);
    await run();
    // (a recovery claimed while its reminder is still being sent goes a moment later)
    await runUntil(() => got().filter((g) => g.includes('resolved')).length === 2);
    // a later occurrence of the same alert id, never announced, owes nobody a recovery
    await h.area.sink.deliver([notice(1, 'resolved', {}, NOTICE_START + 3_600_000)]);
    await h.area.sink.deliver([notice(1, 'resolved')]);
    await runUntil(() => false, 1000, 3);
    expect(got().sort()).toEqual([
      'a firing a1',
      'a reminder a1',
      'a resolved a1',
      'late reminder a1',
      'late resolved a1',
    ]);
  });

  it('a grouped firing message is a receipt for every alert in it; the recovery waits for the group', async () => {
    await setUp({ groupWindowMs: 30_000 });
    await hook('a');
    await h.area.sink.deliver([notice(1, 'firing'), notice(2, 'firing')]);
    await h.area.sink.deliver([notice(2, 'resolved')]);
    await run();
    expect(rx.received).toHaveLength(0); // the recovery of a2 does not overtake its firing
    await h.timers.advance(30_000);
    await run();
    await runUntil(() => rx.received.length === 2); // the recovery follows once the group message went out
    expect(JSON.parse(rx.received[0]!.body).count).toBe(2);
    await h.area.sink.deliver([notice(1, 'resolved')]);
    await run();
    expect(got().slice(1)).toEqual(['a resolved a2', 'a resolved a1']);
  });

  it('a firing and its recovery handed over together go out in that order, the recovery after the firing settled', async () => {
    await setUp();
    await hook('a');
    await h.area.sink.deliver([notice(1, 'firing'), notice(1, 'resolved')]);
    await run();
    expect(got()).toEqual(['a firing a1']); // claimed together: the recovery waited while the firing was sent
    await runUntil(() => got().length === 2);
    expect(got()).toEqual(['a firing a1', 'a resolved a1']);
  });

  it('a recovery does not overtake its firing when a failed send moves the firing later again', async () => {
    await setUp({ maxAttempts: 5 });
    await hook('a');
    let up = false;
    rx.respond((r) => ({ status: up || JSON.parse(r.body).event !== 'firing' ? 204 : 500 }));
    await h.area.sink.deliver([notice(1, 'firing')]);
    await run(); // first attempt fails: the firing is retried after a backoff
    await h.area.sink.deliver([notice(1, 'resolved')]);
    await runUntil(() => rx.received.length >= 3); // two more failed attempts, each moving the firing later
    expect(got()).toEqual(['a firing a1', 'a firing a1', 'a firing a1']);
    up = true;
    await runUntil(() => got().includes('a resolved a1'));
    expect(got()).toEqual(['a firing a1', 'a firing a1', 'a firing a1', 'a firing a1', 'a resolved a1']);
    expect(await h.area.service.stats()).toMatchObject({ sent: 2, pending: 0, dlq: 0 });
  });

  it('a recovery whose firing is dead-lettered is held in the dead-letter queue with it; retried, the firing goes first', async () => {
    await setUp({ maxAttempts: 1 });
    await hook('a');
    rx.respond(() => ({ status: 500 }));
    await h.area.sink.deliver([notice(1, 'firing')]);
    await run();
    await h.area.sink.deliver([notice(1, 'resolved')]);
    await run();
    expect(got()).toEqual(['a firing a1']); // the failed firing only: no recovery for an alert never delivered
    const dead = await h.area.service.deadLetters(10);
    expect(dead.map((x) => x.event).sort()).toEqual(['firing', 'resolved']);
    const held = dead.find((x) => x.event === 'resolved')!;
    expect(held.lastError).toMatch(/announcement of this alert to this channel is in the dead-letter queue/);
    expect(held.attempts).toBe(0); // held, not attempted: no history entry, no channel failure
    expect(await h.area.service.history(10)).toHaveLength(1);

    rx.respond(() => ({ status: 204 }));
    await h.area.service.retryDeadLetter(held.id); // the recovery first: it waits for the firing
    await h.area.service.retryDeadLetter(dead.find((x) => x.event === 'firing')!.id);
    await runUntil(() => got().length === 3);
    expect(got()).toEqual(['a firing a1', 'a firing a1', 'a resolved a1']);
  });

  it('a recovery whose firing was deleted from the dead-letter queue is given up, not sent', async () => {
    await setUp({ maxAttempts: 1 });
    await hook('a');
    rx.respond(() => ({ status: 500 }));
    await h.area.sink.deliver([notice(1, 'firing')]);
    await run();
    const [firing] = await h.area.service.deadLetters(10);
    await h.area.service.deleteDeadLetter(firing!.id);
    rx.respond(() => ({ status: 204 }));
    await h.area.sink.deliver([notice(1, 'resolved')]);
    await runUntil(() => false, 1000, 3);
    expect(got()).toEqual(['a firing a1']);
    expect(await h.area.service.stats()).toMatchObject({ pending: 0, dlq: 0, failed: 2 });
  });

  it('receipts survive a restart', async () => {
    await setUp();
    await hook('a');
    await hook('b', false);
    await h.area.sink.deliver([notice(1, 'firing')]);
    await run();
    const again = await createNotificationsHarness({ db: h.db, secretKey: h.secretKey });
    try {
      const b = (await again.area.webhooks.list()).find((w) => w.name === 'b')!;
      await again.area.webhooks.update(again.actor, String(b.id), { enabled: true });
      await again.area.sink.deliver([notice(1, 'resolved')]);
      await again.area.worker.runNow();
    } finally {
      await again.close();
    }
    expect(got()).toEqual(['a firing a1', 'a resolved a1']);
  });

  it('the migration gives alerts open at upgrade time receipts from their queue rows', async () => {
    const db = openServerDatabase({ dataDir: ':memory:', databaseUrl: undefined });
    try {
      await migrate(db.db as never, db.dialect, migrations.slice(0, 8));
      const row = (n: Notice, channelId: string) => ({
        id: `${n.eventId}-${channelId}`,
        org_id: 'default',
        event_id: n.eventId,
        event: n.event,
        alert_id: n.alert.id,
        channel: 'webhook',
        channel_id: channelId,
        notice: JSON.stringify(n),
        group_id: null,
        status: 'sent',
        attempts: 1,
        max_attempts: 3,
        next_attempt_at: 0,
        last_error: '',
        last_status_code: 204,
        created_at: 1,
        updated_at: 1,
      });
      await db.db
        .insertInto('notification_queue')
        .values([
          row(notice(1, 'firing'), 'w1'),
          row(notice(1, 'reminder'), 'w2'),
          row(notice(2, 'firing'), 'w1'),
          row(notice(2, 'resolved'), 'w1'),
        ])
        .execute();
      await migrateServerDatabase(db);
      const got = await db.db.selectFrom('notification_receipts').selectAll().orderBy('channel_id').execute();
      expect(got.map((r) => [r.alert_id, Number(r.start_ms), r.channel_id])).toEqual([
        ['a1', NOTICE_START, 'w1'],
        ['a1', NOTICE_START, 'w2'],
      ]);
    } finally {
      await db.close();
    }
  });
});
