import { beforeEach, describe, expect, it } from 'vitest';
import { createAlertsHarness, EVERY_DAY, node, T0 } from './alerts.testing.js';

type Harness = Awaited<ReturnType<typeof createAlertsHarness>>;
const cpu = (pct: number) => ({ nodes: [node({ cpu: pct / 100 })] });
const MIN = 60_000;

describe('alert lifecycle (fake clock, live state fed with polls)', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await createAlertsHarness();
    await h.area.service.activate(h.actor);
  });

  it('fires only after the time threshold, with startTime = first breach', async () => {
    await h.poll(cpu(85));
    await h.tick(3000);
    expect(await h.active()).toEqual([]);
    await h.tick(3000);
    const [a] = await h.active();
    expect(a).toMatchObject({ id: 'lab-pve1-cpu', type: 'cpu', level: 'warning', value: 85, threshold: 80 });
    expect(a?.startTime).toBe(new Date(T0).toISOString());
    expect(h.events()).toEqual(['firing lab-pve1-cpu']);
    expect(h.sink.notices[0]?.eventId).toMatch(/^lab-pve1-cpu:firing:\d+$/);
  });

  it('a breach shorter than the time threshold raises nothing', async () => {
    await h.poll(cpu(85));
    await h.tick(2000);
    await h.poll(cpu(50));
    await h.tick(10_000);
    expect(await h.active()).toEqual([]);
    expect(h.events()).toEqual([]);
  });

  it('does not fire inside the hysteresis band, holds there, and resolves below clear with a recovery', async () => {
    await h.poll(cpu(78));
    await h.tick(10_000);
    expect(await h.active()).toEqual([]);
    await h.poll(cpu(85));
    await h.tick(6000);
    await h.poll(cpu(77));
    await h.tick(10_000);
    expect((await h.active())[0]).toMatchObject({ value: 77 });
    await h.poll(cpu(74));
    expect(await h.active()).toEqual([]);
    expect(h.events()).toEqual(['firing lab-pve1-cpu', 'resolved lab-pve1-cpu']);
    const resolved = h.sink.notices[1];
    expect(resolved?.alert.metadata?.resolvedTime).toBeDefined();
    const history = await h.area.service.history({ limit: 10, offset: 0, severity: 'all' });
    expect(history).toHaveLength(1);
    expect(history[0]?.resolvedTime).toBeDefined();
  });

  it('critical at trigger+10; a rise from warning to critical is announced at once', async () => {
    await h.poll(cpu(85));
    await h.tick(6000);
    await h.poll(cpu(95));
    expect((await h.active())[0]?.level).toBe('critical');
    expect(h.events()).toEqual(['firing lab-pve1-cpu', 'firing lab-pve1-cpu']);
  });

  it('reminders every cooldown until acknowledged; the recovery is still announced after the ack', async () => {
    await h.poll(cpu(85));
    await h.tick(6000);
    await h.tick(5 * MIN);
    expect(h.events()).toEqual(['firing lab-pve1-cpu', 'reminder lab-pve1-cpu']);
    await h.area.service.act('acknowledge', h.actor, 'lab-pve1-cpu');
    expect((await h.active())[0]).toMatchObject({ acknowledged: true, ackUser: 'tester' });
    await h.tick(5 * MIN);
    await h.tick(20 * MIN);
    expect(h.events()).toHaveLength(2);
    await h.poll(cpu(10));
    expect(h.events().at(-1)).toBe('resolved lab-pve1-cpu');
    const incident = await h.area.service.incidents({ alertIdentifier: 'lab-pve1-cpu', limit: 1 });
    expect((incident as { events: { type: string }[] }).events.map((e) => e.type)).toEqual([
      'alert_fired',
      'alert_acknowledged',
      'alert_resolved',
    ]);
  });

  it('the acknowledged recovery can be turned off', async () => {
    await h.area.service.updateConfig(h.actor, { schedule: { notifyOnResolveAcknowledged: false } });
    await h.poll(cpu(85));
    await h.tick(6000);
    await h.area.service.act('acknowledge', h.actor, 'lab-pve1-cpu');
    await h.poll(cpu(10));
    expect(h.events()).toEqual(['firing lab-pve1-cpu']);
  });

  it('escalates by level over time, and not once acknowledged', async () => {
    await h.area.service.updateConfig(h.actor, { schedule: { cooldown: 0, escalation: { enabled: true } } });
    await h.poll(cpu(85));
    await h.tick(6000);
    await h.tick(15 * MIN);
    const esc = h.sink.notices.filter((n) => n.event === 'escalated');
    expect(esc).toHaveLength(1);
    expect(esc[0]?.alert).toMatchObject({ lastEscalation: 1, metadata: { escalationNotify: 'email' } });
    await h.area.service.act('acknowledge', h.actor, 'lab-pve1-cpu');
    await h.tick(60 * MIN);
    expect(h.sink.notices.filter((n) => n.event === 'escalated')).toHaveLength(1);
  });

  it('a cleared alert whose condition persists fires again on the next evaluation', async () => {
    await h.poll(cpu(85));
    await h.tick(6000);
    const first = (await h.active())[0];
    await h.tick(MIN);
    await h.area.service.act('clear', h.actor, 'lab-pve1-cpu');
    expect(await h.active()).toEqual([]);
    await h.tick(10_000);
    const again = (await h.active())[0];
    expect(again?.id).toBe('lab-pve1-cpu');
    expect(again?.startTime).not.toBe(first?.startTime);
    expect(h.events()).toEqual(['firing lab-pve1-cpu', 'resolved lab-pve1-cpu', 'firing lab-pve1-cpu']);
    expect(new Set(h.sink.notices.map((n) => n.eventId)).size).toBe(3);
  });

  it('flapping: one flapping notice, repeats held back, the settled state announced after the cooldown', async () => {
    await h.area.service.updateConfig(h.actor, { flappingThreshold: 3, timeThresholds: { all: 0 } });
    for (const v of [90, 10, 90]) await h.poll(cpu(v));
    expect((await h.active())[0]?.flapping).toBe(true);
    for (const v of [10, 90, 10]) await h.poll(cpu(v));
    expect(h.events()).toEqual(['firing lab-pve1-cpu', 'resolved lab-pve1-cpu', 'flapping lab-pve1-cpu']);
    await h.tick(16 * MIN);
    expect(h.events().at(-1)).toBe('resolved lab-pve1-cpu');
    expect(h.events()).toHaveLength(4);
  });

  it('quiet hours defer warnings (not drop them) and deliver them when the window ends', async () => {
    await h.area.service.updateConfig(h.actor, {
      schedule: {
        cooldown: 0,
        quietHours: { enabled: true, start: '06:00', end: '08:00', timezone: 'America/New_York', days: EVERY_DAY },
      },
    });
    await h.poll({ nodes: [node({ cpu: 0.85, memory: { total: 100, used: 99, free: 1, usage: 99 } })] });
    await h.tick(6000);
    // memory 99% is critical (performance criticals are not suppressed by default): it goes out now
    expect(h.events()).toEqual(['firing lab-pve1-memory']);
    await h.tick(30 * MIN);
    expect(h.events()).toHaveLength(1);
    await h.tick(30 * MIN);
    expect(h.events()).toEqual(['firing lab-pve1-memory', 'firing lab-pve1-cpu']);
    const deferred = h.sink.notices[1];
    expect(deferred?.at).toBe(T0 + 6000);
    expect(deferred?.alert.metadata?.quietHoursDeferredUntil).toBe('2026-11-23T13:00:00.000Z');
  });

  it('new installs evaluate but notify nobody until activated; activation announces what is active', async () => {
    const fresh = await createAlertsHarness();
    await fresh.poll(cpu(85));
    await fresh.tick(6000);
    expect(await fresh.active()).toHaveLength(1);
    expect(fresh.events()).toEqual([]);
    const r = await fresh.area.service.activate(fresh.actor);
    expect(r).toMatchObject({ success: true, state: 'active' });
    await fresh.area.idle();
    expect(fresh.events()).toEqual(['firing lab-pve1-cpu']);
  });

  it('a node offline after failed polls raises a critical alert and holds its metric alerts', async () => {
    await h.poll(cpu(85));
    await h.tick(6000);
    for (const n of [1, 2, 3]) h.state.applyFailure('lab', 'hv', new Error('down'), n);
    await h.area.idle();
    const ids = (await h.active()).map((a) => `${a.level} ${a.id}`);
    expect(ids).toEqual(['critical node-offline-lab-pve1', 'warning lab-pve1-cpu']);
    await h.poll(cpu(10));
    expect(h.events()).toEqual([
      'firing lab-pve1-cpu',
      'firing node-offline-lab-pve1',
      'resolved node-offline-lab-pve1',
      'resolved lab-pve1-cpu',
    ]);
  });

  it('per-resource overrides and disables apply, and disabling resolves what was active', async () => {
    await h.poll(cpu(85));
    await h.tick(6000);
    await h.area.service.updateConfig(h.actor, { overrides: { 'lab-pve1': { cpu: { trigger: 95, clear: 90 } } } });
    expect(await h.active()).toEqual([]);
    await h.area.service.updateConfig(h.actor, { overrides: { 'lab-pve1': { disabled: true } } });
    await h.poll(cpu(99));
    await h.tick(10_000);
    expect(await h.active()).toEqual([]);
  });
});
