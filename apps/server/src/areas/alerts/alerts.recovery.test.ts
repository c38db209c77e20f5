import { webhookInput } from '@svc/contract';
import { afterEach, describe, expect, it } from 'vitest';
import { createNotificationsHarness, startReceiver } from '../../testing/notifications.js';
import { createAlertsHarness, EVERY_DAY, node } from './alerts.testing.js';

const cpu = (pct: number) => ({ nodes: [node({ cpu: pct / 100 })] });
const MIN = 60_000;

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
});

/**
 * The alert engine handing notices to the real notification queue (same database and clock), webhooks
 * `a` (enabled) and `b` (disabled) on a loopback receiver. The clock starts at 07:00 in New York.
 */
async function setUp() {
  const n = await createNotificationsHarness();
  const rx = await startReceiver(() => ({ status: 204 }));
  closers.push(n.close, rx.close);
  const hook = async (name: string, enabled: boolean) =>
    String(
      (
        await n.area.webhooks.create(
          n.actor,
          webhookInput.parse({ name, url: `${rx.url}/${name}`, service: 'generic', enabled }),
        )
      ).id,
    );
  await hook('a', true);
  const b = await hook('b', false);
  const h = await createAlertsHarness({ db: n.db, clock: n.clock, sink: n.area.sink });
  await h.area.service.activate(h.actor);
  const flush = async () => {
    await h.area.idle();
    await n.area.worker.runNow();
  };
  const got = () =>
    rx.received.map((r) => {
      const body = JSON.parse(r.body);
      return `${r.url.slice(1)} ${body.event}`;
    });
  const enableB = () => n.area.webhooks.update(n.actor, b, { enabled: true });
  return { h, n, flush, got, enableB };
}

describe('recoveries go to the channels that got the alert', () => {
  it('an acknowledged alert: no reminders, and the recovery still reaches the channels that got it', async () => {
    const { h, flush, got, enableB } = await setUp();
    await h.area.service.updateConfig(h.actor, { schedule: { cooldown: 1 } });
    await h.poll(cpu(85));
    await h.tick(6000);
    await flush();
    expect(got()).toEqual(['a firing']);
    await h.area.service.act('acknowledge', h.actor, 'lab-pve1-cpu');
    await enableB();
    await h.tick(5 * MIN);
    await flush();
    expect(got()).toEqual(['a firing']);
    await h.poll(cpu(10));
    await flush();
    expect(got()).toEqual(['a firing', 'a resolved']);
  });

  it('all-channels sends the recovery to every enabled channel', async () => {
    const { h, flush, got, enableB } = await setUp();
    await h.area.service.updateConfig(h.actor, { schedule: { recoveryRouting: 'all-channels' } });
    await h.poll(cpu(85));
    await h.tick(6000);
    await flush();
    await enableB();
    await h.poll(cpu(10));
    await flush();
    expect(got().sort()).toEqual(['a firing', 'a resolved', 'b resolved']);
  });

  it('quiet hours: a firing still held when the alert resolves goes out with its recovery when the window ends', async () => {
    const { h, flush, got } = await setUp();
    const quietHours = { enabled: true, start: '06:00', end: '08:00', timezone: 'America/New_York', days: EVERY_DAY };
    await h.area.service.updateConfig(h.actor, { schedule: { cooldown: 0, quietHours } });
    await h.poll(cpu(85));
    await h.tick(6000);
    await flush();
    expect(got()).toEqual([]);
    // Quiet hours switched off meanwhile: the recovery is not held by them, but it must not overtake its firing.
    await h.area.service.updateConfig(h.actor, { schedule: { quietHours: { ...quietHours, enabled: false } } });
    await h.poll(cpu(10));
    await h.tick(10_000);
    await flush();
    expect(got()).toEqual([]);
    await h.tick(60 * MIN);
    await flush();
    expect(got()).toEqual(['a firing']); // due together: the recovery waits until the firing was delivered
    await h.tick(1000);
    await flush();
    expect(got()).toEqual(['a firing', 'a resolved']);
  });
});
