import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Simulator, startSimulator } from '@svc/hv-sim';
import { FakeClock } from '@svc/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeTimers } from '../platform/jobs/index.js';
import { createToken, login, relaxedLimits, setUpAdmin } from '../testing/access.js';
import { createTestApp, type TestApp } from '../testing/app.js';

interface Received {
  eventId: string;
  body: { content?: string; embeds?: { title?: string; description?: string }[] };
}

/**
 * The whole path with real parts: the simulator's guest gets hot, the collector polls it, the alert engine
 * fires after its time threshold, the queue delivers a Discord-style webhook to a receiver on loopback, and
 * the recovery follows when the guest cools down. Time moves only through the fake clock and timers.
 */
describe('an alert on a simulated guest reaches a webhook, and so does its recovery', () => {
  const clock = new FakeClock(Date.UTC(2026, 10, 22, 12));
  const timers = new FakeTimers(clock);
  const received: Received[] = [];
  let receiver: Server;
  let hv: Simulator;
  let t: TestApp;
  let auth: Record<string, string>;
  let vmid: number;

  const api = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) =>
    t.app.inject({ method, url, payload: payload as object, headers: auth });

  /** Move fake time in steps, joining polls in flight, until `done` holds or the budget is spent. */
  async function runUntil(done: () => boolean, budgetMs: number): Promise<number> {
    const start = clock.now();
    while (!done() && clock.now() - start < budgetMs) {
      await timers.advance(1_000);
      const polls = t.app.svc.polls;
      await Promise.all(polls.list().map((m) => polls.pollNow(m.cfg.id).catch(() => undefined)));
      await new Promise((r) => setImmediate(r));
    }
    return clock.now() - start;
  }

  beforeAll(async () => {
    receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => {
        body += c;
      });
      req.on('end', () => {
        received.push({ eventId: String(req.headers['x-svc-event-id']), body: JSON.parse(body) });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    hv = await startSimulator({
      kind: 'hv',
      port: 0,
      nodes: 1,
      guestsPerNode: 4,
      seed: 'alerts-e2e',
      tokens: [{ tokenId: 'svc@pve!mon', secret: 's3cret-token' }],
      clock: () => clock.now(),
    });
    t = await createTestApp({
      clock,
      env: { ...relaxedLimits, SVC_WEBHOOK_ALLOW_CIDRS: '127.0.0.1/32' },
      overrides: { timers },
    });
    await setUpAdmin(t);
    auth = { 'x-api-token': await createToken(t, await login(t), ['*']) };
    const node = await api('POST', '/api/config/nodes', {
      type: 'hv',
      name: 'lab',
      host: hv.url,
      tokenName: 'svc@pve!mon',
      tokenValue: 's3cret-token',
    });
    expect(node.statusCode, node.body).toBe(201);
    const port = (receiver.address() as AddressInfo).port;
    const hook = await api('POST', '/api/notifications/webhooks', {
      name: 'ops-discord',
      url: `http://127.0.0.1:${port}/hook`,
      service: 'discord',
    });
    expect(hook.statusCode, hook.body).toBe(201);
    expect((await api('POST', '/api/alerts/activate')).statusCode).toBe(200);
    await runUntil(() => false, 5_000);
    const running = (await api('GET', '/api/state')).json().vms.find((v: { status: string }) => v.status === 'running');
    vmid = running.vmid;
  });
  afterAll(async () => {
    await t.close();
    await hv.close();
    receiver.close();
  });

  it('fires once the CPU has stayed above the threshold for the time threshold, and not before', async () => {
    hv.control.setGuest(vmid, { cpu: 0.97 });
    await runUntil(() => received.length > 0, 60_000);
    const active = (await api('GET', '/api/alerts/active')).json();
    const alert = active.find((a: { resourceName?: string; type: string }) => a.type === 'cpu');
    expect(alert, JSON.stringify(active)).toBeDefined();
    expect(new Date(alert.lastSeen).getTime() - new Date(alert.startTime).getTime()).toBeGreaterThanOrEqual(5_000);
    expect(received).toHaveLength(1);
    expect(received[0]!.eventId).toContain(`${alert.id}:firing`);
    expect(JSON.stringify(received[0]!.body)).toContain(alert.resourceName);
  });

  it('announces the recovery when the guest cools down', async () => {
    hv.control.setGuest(vmid, { cpu: 0.02 });
    await runUntil(() => received.length > 1, 60_000);
    expect(received).toHaveLength(2);
    expect(received[1]!.eventId).toContain(':resolved');
    expect(
      (await api('GET', '/api/alerts/active')).json().filter((a: { type: string }) => a.type === 'cpu'),
    ).toHaveLength(0);
    const history = (await api('GET', '/api/notifications/webhook-history')).json();
    expect(history.filter((h: { success: boolean }) => h.success)).toHaveLength(2);
  });
});
