import type { Scope } from '@svc/contract';
import { FakeClock } from '@svc/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '../../platform/http/principal.js';
import { LiveState } from '../../state/index.js';
import { createTestApp, type TestApp } from '../../testing/app.js';
import { hvPoll, node } from './alerts.testing.js';

function tokenWith(scopes: Scope[]): () => Promise<Principal> {
  return async () => ({ kind: 'token', username: 'ops', isAdmin: false, scopes, orgId: 'default' });
}

describe('alert endpoints', () => {
  let t: TestApp;
  let reader: TestApp;
  let anonymous: TestApp;
  let state: LiveState;
  beforeAll(async () => {
    const clock = new FakeClock(Date.UTC(2026, 10, 23, 12));
    state = new LiveState({ clock });
    t = await createTestApp({
      clock,
      overrides: { authenticate: tokenWith(['monitoring:read', 'monitoring:write']), state },
    });
    reader = await createTestApp({ overrides: { authenticate: tokenWith(['monitoring:read']) } });
    anonymous = await createTestApp();
  });
  afterAll(async () => {
    for (const a of [t, reader, anonymous]) await a.close();
  });

  const call = (app: TestApp, method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, payload?: unknown) =>
    app.app.inject({ method, url, ...(payload === undefined ? {} : { payload: payload as object }) });

  it('GET config: the reference defaults, pending review on a new install', async () => {
    const res = await call(t, 'GET', '/api/alerts/config');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      activationState: 'pending_review',
      maxAlertAgeDays: 7,
      maxAcknowledgedAgeDays: 1,
      autoAcknowledgeAfterHours: 24,
      flappingEnabled: true,
      flappingWindowSeconds: 300,
      flappingThreshold: 5,
      flappingCooldownMinutes: 15,
      guestDefaults: { cpu: { trigger: 80, clear: 75 } },
      schedule: { cooldown: 5, grouping: { window: 30 } },
    });
  });

  it('PUT config merges sections; an invalid value answers 400 naming the field and changes nothing', async () => {
    const ok = await call(t, 'PUT', '/api/alerts/config', { timeThresholds: { all: 0 }, schedule: { cooldown: 0 } });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ timeThresholds: { all: 0 }, schedule: { cooldown: 0, maxAlertsHour: 10 } });
    for (const [body, field] of [
      [{ flappingThreshold: 1 }, 'flappingThreshold'],
      [{ schedule: { quietHours: { start: '25:00' } } }, 'schedule.quietHours.start'],
      [{ schedule: { quietHours: { timezone: 'Mars/Olympus' } } }, 'schedule.quietHours.timezone'],
      [{ guestDefaults: { cpu: { trigger: 80, clear: 90 } } }, 'guestDefaults.cpu.clear'],
      [
        {
          schedule: {
            escalation: {
              levels: [
                { after: 30, notify: 'all' },
                { after: 10, notify: 'email' },
              ],
            },
          },
        },
        'schedule.escalation.levels.1.after',
      ],
    ] as const) {
      const bad = await call(t, 'PUT', '/api/alerts/config', body);
      expect(bad.statusCode, JSON.stringify(body)).toBe(400);
      expect(bad.json().message).toContain(field);
    }
    const after = (await call(t, 'GET', '/api/alerts/config')).json();
    expect(after).toMatchObject({ flappingThreshold: 5, schedule: { cooldown: 0, quietHours: { start: '22:00' } } });
  });

  it('401 without credentials, 403 with the wrong scope', async () => {
    expect((await call(anonymous, 'GET', '/api/alerts/active')).statusCode).toBe(401);
    expect((await call(anonymous, 'POST', '/api/alerts/acknowledge', { id: 'x' })).statusCode).toBe(401);
    expect((await call(reader, 'GET', '/api/alerts/active')).statusCode).toBe(200);
    expect((await call(reader, 'PUT', '/api/alerts/config', { flappingThreshold: 3 })).statusCode).toBe(403);
    expect((await call(reader, 'POST', '/api/alerts/activate')).statusCode).toBe(403);
    expect((await call(reader, 'DELETE', '/api/alerts/history')).statusCode).toBe(403);
  });

  it('activate, active list, acknowledge (body and legacy path), incidents, notes, bulk clear, history', async () => {
    const act = await call(t, 'POST', '/api/alerts/activate');
    expect(act.json()).toMatchObject({ success: true, state: 'active', message: 'Alert notifications activated' });
    expect((await call(t, 'POST', '/api/alerts/activate')).json().message).toBe('Alerts already activated');

    const mem = { total: 100, used: 88, free: 12, usage: 88 };
    state.applyPoll('lab', hvPoll(Date.UTC(2026, 10, 23, 12), { nodes: [node({ cpu: 0.97, memory: mem })] }));
    const active = (await call(t, 'GET', '/api/alerts/active')).json();
    expect(active.map((a: { id: string; level: string }) => `${a.level} ${a.id}`)).toEqual([
      'critical lab-pve1-cpu',
      'warning lab-pve1-memory',
    ]);

    expect((await call(t, 'POST', '/api/alerts/acknowledge', { id: 'lab-pve1-cpu' })).json()).toEqual({
      success: true,
    });
    expect((await call(t, 'POST', '/api/alerts/lab-pve1-memory/acknowledge')).statusCode).toBe(200);
    const acked = (await call(t, 'GET', '/api/alerts/active')).json();
    expect(acked.every((a: { acknowledged: boolean; ackUser: string }) => a.acknowledged && a.ackUser === 'ops')).toBe(
      true,
    );
    expect((await call(t, 'POST', '/api/alerts/unacknowledge', { alertIdentifier: 'lab-pve1-cpu' })).statusCode).toBe(
      200,
    );

    expect((await call(t, 'POST', '/api/alerts/acknowledge', { id: 'nope-cpu' })).statusCode).toBe(404);
    expect((await call(t, 'POST', '/api/alerts/nope-cpu/clear')).statusCode).toBe(404);
    expect((await call(t, 'POST', '/api/alerts/acknowledge', {})).json().message).toContain('id');

    const note = await call(t, 'POST', '/api/alerts/incidents/note', {
      alertIdentifier: 'lab-pve1-cpu',
      note: 'looking',
    });
    expect(note.json()).toEqual({ success: true });
    expect(
      (await call(t, 'POST', '/api/alerts/incidents/note', { alertIdentifier: 'nope', note: 'x' })).statusCode,
    ).toBe(404);
    const inc = (await call(t, 'GET', '/api/alerts/incidents?alertIdentifier=lab-pve1-cpu')).json();
    expect(inc.events.map((e: { type: string }) => e.type)).toEqual([
      'alert_fired',
      'alert_acknowledged',
      'alert_unacknowledged',
      'note',
    ]);
    expect((await call(t, 'GET', '/api/alerts/incidents?alertIdentifier=none')).json()).toBeNull();

    const bulk = await call(t, 'POST', '/api/alerts/bulk/clear', { ids: ['lab-pve1-cpu', 'lab-pve1-memory', 'ghost'] });
    expect(bulk.json().results).toEqual([
      { id: 'lab-pve1-cpu', success: true },
      { id: 'lab-pve1-memory', success: true },
      { id: 'ghost', success: false, error: 'alert not found' },
    ]);
    expect((await call(t, 'POST', '/api/alerts/bulk/acknowledge', { ids: [] })).statusCode).toBe(400);
    expect((await call(t, 'GET', '/api/alerts/active')).json()).toEqual([]);

    const history = (await call(t, 'GET', '/api/alerts/history?severity=critical')).json();
    expect(history).toHaveLength(1);
    expect(history[0]).toMatchObject({ id: 'lab-pve1-cpu', level: 'critical' });
    expect(history[0].resolvedTime).toBeDefined();
    expect((await call(t, 'GET', '/api/alerts/history?limit=-1')).statusCode).toBe(400);
    expect((await call(t, 'DELETE', '/api/alerts/history')).json()).toEqual({
      status: 'success',
      message: 'Alert history cleared',
    });
    expect((await call(t, 'GET', '/api/alerts/history')).json()).toEqual([]);
  });
});
