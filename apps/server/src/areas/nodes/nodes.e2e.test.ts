import { type Simulator, startSimulator } from '@svc/hv-sim';
import { FakeClock } from '@svc/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { FakeTimers } from '../../platform/jobs/index.js';
import { LiveState } from '../../state/index.js';
import { createToken, login, relaxedLimits, setUpAdmin } from '../../testing/access.js';
import { createTestApp, type TestApp } from '../../testing/app.js';

const HV_SECRET = 'hv-token-secret-0f3a';
const BAK_PASSWORD = 'bak-password-77c1';
const MAIL_PASSWORD = 'mail-password-91de';

describe('nodes: configure hv, bak and mail instances and see them in the live state', () => {
  const clock = new FakeClock(Date.UTC(2026, 10, 22, 12));
  const timers = new FakeTimers(clock);
  const state = new LiveState({ clock, offlineAfter: 2 });
  const sims: Simulator[] = [];
  let hv: Simulator;
  let bak: Simulator;
  let mail: Simulator;
  let t: TestApp;
  let auth: Record<string, string>;
  let readOnly: Record<string, string>;

  const api = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, headers = auth) =>
    t.app.inject({ method, url, payload: payload as object, headers });

  beforeAll(async () => {
    const common = { port: 0, seed: 'nodes-e2e', clock: () => clock.now(), delay: async () => {} };
    hv = await startSimulator({
      ...common,
      kind: 'hv',
      nodes: 3,
      guestsPerNode: 20,
      cluster: 'lab',
      tokens: [{ tokenId: 'svc@pve!mon', secret: HV_SECRET }],
    });
    bak = await startSimulator({
      ...common,
      kind: 'bak',
      nodes: 2,
      guestsPerNode: 4,
      users: [{ username: 'svc@pbs', password: BAK_PASSWORD }],
    });
    mail = await startSimulator({
      ...common,
      kind: 'mail',
      nodes: 1,
      users: [{ username: 'svc@pmg', password: MAIL_PASSWORD }],
    });
    sims.push(hv, bak, mail);
    t = await createTestApp({ clock, env: relaxedLimits, overrides: { state, timers } });
    await setUpAdmin(t);
    const session = await login(t);
    auth = { 'x-api-token': await createToken(t, session, ['*'], 'admin-token') };
    readOnly = { 'x-api-token': await createToken(t, session, ['settings:read', 'monitoring:read'], 'reader') };
  });
  afterAll(async () => {
    await t.close();
    await Promise.all(sims.map((s) => s.close()));
  });

  it('adds an hv cluster by token and detects its members', async () => {
    const res = await api('POST', '/api/config/nodes', {
      type: 'hv',
      name: 'lab',
      host: hv.url,
      tokenName: 'svc@pve!mon',
      tokenValue: HV_SECRET,
      verifySSL: false,
    });
    expect(res.statusCode, res.body).toBe(201);
    const node = res.json();
    expect(node).toMatchObject({ type: 'hv', name: 'lab', hasToken: true, hasPassword: false, isCluster: true });
    expect(node.clusterName).toBe('lab');
    expect(node.clusterEndpoints).toHaveLength(3);
    expect(res.body).not.toContain(HV_SECRET);
  });

  it('adds a bak and a mail instance by password', async () => {
    for (const [type, sim, user, password] of [
      ['bak', bak, 'svc@pbs', BAK_PASSWORD],
      ['mail', mail, 'svc@pmg', MAIL_PASSWORD],
    ] as const) {
      const res = await api('POST', '/api/config/nodes', { type, name: `${type}-1`, host: sim.url, user, password });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json()).toMatchObject({ hasPassword: true, hasToken: false });
      expect(res.body).not.toContain(password);
    }
  });

  /** Fire what is due, then wait for the polls that started to finish (real HTTP to the simulators). */
  const advance = async (ms: number) => {
    await timers.advance(ms);
    const polls = t.app.svc.polls;
    await Promise.all(polls.list().map((m) => polls.pollNow(m.cfg.id).catch(() => undefined)));
  };

  it('the state reflects all three within two poll intervals', async () => {
    await advance(20_000);
    const res = await api('GET', '/api/state', undefined, readOnly);
    expect(res.statusCode).toBe(200);
    const s = res.json();
    expect(s.nodes).toHaveLength(3);
    expect(s.vms.length + s.containers.length).toBe(60);
    expect(s.pbs.length).toBeGreaterThan(0);
    expect(s.pmg.length).toBeGreaterThan(0);
    expect(s.mockMode).toBe(false);
    const list = (await api('GET', '/api/config/nodes', undefined, readOnly)).json();
    expect(list.map((n: { status: string }) => n.status)).toEqual(['connected', 'connected', 'connected']);
  });

  it('every poll is recorded in the metrics history', async () => {
    await advance(10_000);
    const node = (await api('GET', '/api/state')).json().nodes[0];
    const res = await api(
      'GET',
      `/api/metrics-store/history?resourceType=node&resourceId=${encodeURIComponent(node.id)}&range=1h`,
    );
    expect(res.statusCode, res.body).toBe(200);
    const cpu = res.json().series.find((s: { metric: string }) => s.metric === 'cpu');
    expect(cpu.points.length).toBeGreaterThanOrEqual(2);
    expect(cpu.points.every((p: { avg: number }) => p.avg >= 0 && p.avg <= 100)).toBe(true);
  });

  it('scheduler health lists every instance', async () => {
    const res = await api('GET', '/api/monitoring/scheduler/health', undefined, readOnly);
    expect(res.statusCode).toBe(200);
    expect(res.json().instances).toHaveLength(3);
    expect(res.json().deadLetter.count).toBe(0);
  });

  it('refuses bad input with 400 naming the field, and changes nothing', async () => {
    const before = (await api('GET', '/api/config/nodes')).json().length;
    const cases: [unknown, string][] = [
      [{ type: 'hv', name: 'x', host: 'ftp://nope', user: 'a@pam', password: 'p' }, 'host'],
      [{ type: 'vmware', name: 'x', host: '10.0.0.1', user: 'a@pam', password: 'p' }, 'type'],
      [{ type: 'hv', name: 'x', host: '10.0.0.1' }, 'user'],
      [{ type: 'mail', name: 'x', host: '10.0.0.1', tokenName: 'a@pmg!t', tokenValue: 'v' }, 'tokenName'],
      [{ type: 'hv', name: 'x', host: '10.0.0.1', tokenName: 'a@pve!t' }, 'tokenValue'],
      [{ type: 'hv', name: '', host: '10.0.0.1', user: 'a@pam', password: 'p' }, 'name'],
    ];
    for (const [body, field] of cases) {
      const res = await api('POST', '/api/config/nodes', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().details.issues.map((i: { field: string }) => i.field)).toContain(field);
    }
    const dup = await api('POST', '/api/config/nodes', {
      type: 'bak',
      name: 'bak-1',
      host: bak.url,
      user: 'svc@pbs',
      password: 'x',
    });
    expect(dup.statusCode).toBe(409);
    expect((await api('GET', '/api/config/nodes')).json()).toHaveLength(before);
  });

  it('a token without settings:write cannot change nodes', async () => {
    const res = await api(
      'POST',
      '/api/config/nodes',
      { type: 'hv', name: 'y', host: '10.0.0.9', user: 'a@pam', password: 'p' },
      readOnly,
    );
    expect(res.statusCode).toBe(403);
  });

  it('updates keep a masked secret, and changes apply without a restart', async () => {
    const list = (await api('GET', '/api/config/nodes')).json();
    const bakNode = list.find((n: { type: string }) => n.type === 'bak');
    const res = await api('PUT', `/api/config/nodes/${bakNode.id}`, { name: 'backup-main', password: '********' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ name: 'backup-main', hasPassword: true });
    await advance(61_000);
    expect((await api('GET', '/api/config/nodes')).json().find((n: { id: string }) => n.id === bakNode.id).status).toBe(
      'connected',
    );
  });

  it('tests connections: the right token works, a wrong one says authentication failed', async () => {
    const ok = await api('POST', '/api/config/nodes/test-connection', {
      type: 'hv',
      name: 'probe',
      host: hv.url,
      tokenName: 'svc@pve!mon',
      tokenValue: HV_SECRET,
    });
    expect(ok.json()).toMatchObject({ success: true, isCluster: true, clusterName: 'lab' });
    const bad = await api('POST', '/api/config/nodes/test-connection', {
      type: 'hv',
      name: 'probe',
      host: hv.url,
      tokenName: 'svc@pve!mon',
      tokenValue: 'wrong-secret',
    });
    expect(bad.json().success).toBe(false);
    expect(bad.json().message).toMatch(/Authentication failed/);
    const cfg = await api('POST', '/api/config/nodes/test-config', {
      type: 'hv',
      name: 'probe',
      host: 'http://10.0.0.1',
      user: 'root@pam',
      password: 'pw',
      verifySSL: false,
    });
    expect(cfg.json().valid).toBe(true);
    expect(cfg.json().warnings.length).toBe(2);
  });

  it('mock mode shows a simulated estate, refuses node changes, and turning it off restores real data', async () => {
    const on = await api('POST', '/api/system/mock-mode', { enabled: true, nodes: 2, guestsPerNode: 3 });
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json()).toMatchObject({ enabled: true, nodes: 2 });
    const s = (await api('GET', '/api/state')).json();
    expect(s.mockMode).toBe(true);
    expect(s.nodes).toHaveLength(2);
    expect((await t.app.inject({ method: 'GET', url: '/api/health' })).json().mockMode).toBe(true);
    const refused = await api('POST', '/api/config/nodes', {
      type: 'hv',
      name: 'z',
      host: '10.1.1.1',
      user: 'a@pam',
      password: 'p',
    });
    expect(refused.statusCode).toBe(409);
    const off = await api('POST', '/api/system/mock-mode', { enabled: false });
    expect(off.json().enabled).toBe(false);
    await advance(1_000);
    const real = (await api('GET', '/api/state')).json();
    expect(real.mockMode).toBe(false);
    expect(real.nodes).toHaveLength(3);
  });

  it('the simple status page lists the nodes', async () => {
    const res = await api('GET', '/simple-stats', undefined, readOnly);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toContain('3 nodes');
  });

  it('a change made in the simulator reaches /ws as a delta holding only that guest', async () => {
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const ws = new WebSocket(`${base.replace('http', 'ws')}/ws`, { headers: auth });
    const frames: { type: string; data: { upserts?: { vms?: { vmid: number; cpu: number }[] } } }[] = [];
    const opened = new Promise<void>((resolve, reject) => {
      ws.on('message', (raw) => {
        const m = JSON.parse(String(raw));
        frames.push(m);
        if (m.type === 'initialState') resolve();
      });
      ws.on('error', reject);
    });
    await opened;
    const vm = (await api('GET', '/api/state')).json().vms.find((v: { status: string }) => v.status === 'running');
    hv.control.setGuest(vm.vmid, { cpu: 0.77 });
    const deadline = clock.now() + 30_000;
    const hit = () =>
      frames.find(
        (f) =>
          f.type === 'rawData' &&
          f.data.upserts?.vms?.some((v) => v.vmid === vm.vmid && Math.abs(v.cpu - 0.77) < 0.005),
      );
    while (!hit() && clock.now() < deadline) await advance(1_000);
    ws.close();
    const delta = hit();
    expect(delta, 'no delta for the changed guest').toBeDefined();
    expect(delta!.data.upserts!.vms!.find((v) => v.vmid === vm.vmid)!.cpu).toBeCloseTo(0.77, 2);
    // Only what changed travels: far fewer guests than the 60 the full state holds.
    expect(delta!.data.upserts!.vms!.length).toBeLessThan(60);
  });

  it('deleting a node stops polling it and removes its resources', async () => {
    const list = (await api('GET', '/api/config/nodes')).json();
    const mailNode = list.find((n: { type: string }) => n.type === 'mail');
    expect((await api('DELETE', `/api/config/nodes/${mailNode.id}`)).statusCode).toBe(204);
    expect((await api('GET', '/api/state')).json().pmg).toHaveLength(0);
    expect((await api('DELETE', `/api/config/nodes/${mailNode.id}`)).statusCode).toBe(404);
  });

  it('credentials never appear in responses, logs or the database in clear', async () => {
    const rows = await t.db.db.selectFrom('nodes').selectAll().execute();
    const text = JSON.stringify(rows) + t.logLines().join('\n');
    for (const secret of [HV_SECRET, BAK_PASSWORD]) expect(text).not.toContain(secret);
  });
});
