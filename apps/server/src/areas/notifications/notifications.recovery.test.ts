import { webhookInput } from '@svc/contract';
import { migrate } from '@svc/platform';
import { afterEach, describe, expect, it } from 'vitest';
import { migrateServerDatabase, openServerDatabase } from '../../platform/db/index.js';
import { migrations } from '../../platform/db/migrations/index.js';
import { createNotificationsHarness, NOTICE_START, sampleNotice, startReceiver } from '../../testing/notifications.js';
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

async function setUp(policy = {}) {
  h = await createNotificationsHarness({ policy: { baseBackoffMs: 1000, maxAttempts: 3, ...policy } });
  rx = await startReceiver(() => ({ status: 204 }));
  closers.push(h.close, rx.close);
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

describe('recovery routing', () => {
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
    // a later occurrence of the same alert id, never announced, owes nobody a recovery
    await h.area.sink.deliver([notice(1, 'resolved', {}, NOTICE_START + 3_600_000)]);
    await h.area.sink.deliver([notice(1, 'resolved')]);
    await run();
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
    expect(rx.received).toHaveLength(2);
    expect(JSON.parse(rx.received[0]!.body).count).toBe(2);
    await h.area.sink.deliver([notice(1, 'resolved')]);
    await run();
    expect(got().slice(1)).toEqual(['a resolved a2', 'a resolved a1']);
  });

  it('a firing and its recovery handed over together go out in that order', async () => {
    await setUp();
    await hook('a');
    await h.area.sink.deliver([notice(1, 'firing'), notice(1, 'resolved')]);
    await run();
    await run();
    expect(got()).toEqual(['a firing a1', 'a resolved a1']);
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
