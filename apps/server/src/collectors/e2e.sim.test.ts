import { createMemoryLogger, FakeClock } from '@svc/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @svc/hv-sim is not linked into node_modules yet; import its source directly.
import { type Simulator, startSimulator } from '../../../../packages/hv-sim/src/index.js';
import { FakeTimers } from '../platform/jobs/index.js';
import { LiveState, type StateDelta } from '../state/index.js';
import { collectorFactories, type InstanceConfig, PollManager } from './index.js';

const T0 = Date.UTC(2026, 0, 15, 12);

function stack(clock: FakeClock) {
  const timers = new FakeTimers(clock);
  const state = new LiveState({ clock, offlineAfter: 3 });
  const deltas: StateDelta[] = [];
  state.subscribe((d) => deltas.push(d));
  const manager = new PollManager({ clock, timers, factories: collectorFactories, sink: state, random: () => 0.5 });
  return { timers, state, deltas, manager };
}

describe('collectors against the simulator', () => {
  const clock = new FakeClock(T0);
  const sims: Simulator[] = [];
  let hv: Simulator;
  let bak: Simulator;
  let mail: Simulator;

  beforeAll(async () => {
    const common = { port: 0, seed: 'e2e', clock: () => clock.now(), delay: async () => {} };
    hv = await startSimulator({
      ...common,
      kind: 'hv',
      nodes: 3,
      guestsPerNode: 20,
      cluster: 'demo',
      tokens: [{ tokenId: 'svc@pve!mon', secret: 'hv-secret' }],
    });
    bak = await startSimulator({
      ...common,
      kind: 'bak',
      nodes: 2,
      guestsPerNode: 3,
      users: [{ username: 'svc@pbs', password: 'bak-pw' }],
    });
    mail = await startSimulator({
      ...common,
      kind: 'mail',
      nodes: 2,
      users: [{ username: 'svc@pmg', password: 'mail-pw' }],
    });
    sims.push(hv, bak, mail);
  });
  afterAll(async () => {
    await Promise.all(sims.map((s) => s.close()));
  });

  const hvCfg = (): InstanceConfig => ({
    id: 'hv-0',
    kind: 'hv',
    name: 'demo',
    host: hv.url,
    credentials: { type: 'token', tokenId: 'svc@pve!mon', secret: 'hv-secret' },
    endpoints: hv.urls.slice(1).map((u) => ({ name: u.node, host: u.url })),
  });

  it('detects the cluster and polls 3 nodes × 20 guests by token, with guest-agent memory', async () => {
    const s = stack(clock);
    const test = await s.manager.test(hvCfg());
    expect(test.cluster?.name).toBe('demo');
    expect(test.cluster?.members.map((m) => m.name)).toEqual(['pve1', 'pve2', 'pve3']);
    s.manager.upsert(hvCfg());
    await s.manager.pollNow('hv-0');
    const { state } = s.state.snapshot();
    expect(state.nodes.map((n) => [n.id, n.status])).toEqual([
      ['demo-pve1', 'online'],
      ['demo-pve2', 'online'],
      ['demo-pve3', 'online'],
    ]);
    expect(state.vms.length + state.containers.length).toBe(60);
    const running = state.vms.filter((v) => v.status === 'running' && !v.template);
    expect(running.some((v) => v.memorySource === 'guest-agent' && v.diskSource === 'guest-agent')).toBe(true);
    expect(running.some((v) => v.memorySource !== 'guest-agent' && v.diskSource === 'none')).toBe(true);
    expect(state.storage.length).toBeGreaterThan(0);
    expect(state.pveBackups.storageBackups.length).toBeGreaterThan(0);
    expect(state.pveBackups.backupTasks.length).toBeGreaterThan(0);
    const h = s.manager.health().instances[0];
    expect(h?.pollStatus.consecutiveFailures).toBe(0);
    expect(h?.warnings).toEqual([]);
    await s.manager.stop();
  });

  it('honours the monitor switches of the node record', async () => {
    const s = stack(clock);
    s.manager.upsert({ ...hvCfg(), collect: { containers: false, backups: false, physicalDisks: false } });
    await s.manager.pollNow('hv-0');
    const { state } = s.state.snapshot();
    expect(state.vms.length).toBeGreaterThan(0);
    expect(state.containers).toEqual([]);
    expect(state.pveBackups.storageBackups).toEqual([]);
    expect(state.pveBackups.guestSnapshots).toEqual([]);
    expect(state.physicalDisks).toEqual([]);
    expect(state.nodes.every((n) => n.status === 'online')).toBe(true);
    await s.manager.stop();
  });

  it('shows a change made through the simulator as a delta', async () => {
    const s = stack(clock);
    s.manager.upsert(hvCfg());
    await s.manager.pollNow('hv-0');
    const vm = s.state.get('vms').find((v) => v.status === 'running')!;
    hv.control.setGuest(vm.vmid, { cpu: 0.93 });
    clock.advance(10_000);
    const before = s.deltas.length;
    await s.manager.pollNow('hv-0');
    const delta = s.deltas.slice(before).at(-1)!;
    expect(delta.upserts.vms?.find((v) => v.vmid === vm.vmid)?.cpu).toBeCloseTo(0.93, 5);
    hv.control.setGuest(vm.vmid, { cpu: null });
    await s.manager.stop();
  });

  it('fails over to another member when the first one goes offline', async () => {
    const s = stack(clock);
    s.manager.upsert(hvCfg());
    await s.manager.pollNow('hv-0');
    hv.control.setNodeOnline('pve1', false);
    try {
      clock.advance(10_000);
      await s.manager.pollNow('hv-0');
      const nodes = s.state.get('nodes');
      expect(nodes.find((n) => n.node === 'pve1')?.status).toBe('offline');
      expect(nodes.find((n) => n.node === 'pve2')?.status).toBe('online');
      const health = s.manager.health();
      expect(health.instances[0]?.pollStatus.consecutiveFailures).toBe(0);
      expect(health.instances[0]?.connection).toBe('degraded');
      expect(
        s.manager
          .get('hv-0')
          ?.collector.endpoints()
          .map((e) => e.healthy),
      ).toEqual([false, true, true]);
    } finally {
      hv.control.setNodeOnline('pve1', true);
    }
    await s.manager.stop();
  });

  it('polls bak and mail by password', async () => {
    const s = stack(clock);
    s.manager.upsert({
      id: 'bak-0',
      kind: 'bak',
      name: 'backup',
      host: bak.url,
      credentials: { type: 'password', username: 'svc@pbs', password: 'bak-pw' },
    });
    s.manager.upsert({
      id: 'mail-0',
      kind: 'mail',
      name: 'gateway',
      host: mail.url,
      credentials: { type: 'password', username: 'svc@pmg', password: 'mail-pw' },
    });
    await Promise.all([s.manager.pollNow('bak-0'), s.manager.pollNow('mail-0')]);
    const { state } = s.state.snapshot();
    expect(state.pbs[0]).toMatchObject({ id: 'bak-0', status: 'online' });
    expect(state.pbs[0]?.datastores.length).toBe(2);
    expect(state.pbsBackups.length).toBeGreaterThan(0);
    expect(state.pmg[0]?.nodes.map((n) => n.name)).toEqual(['pmg1', 'pmg2']);
    expect(state.pmg[0]?.nodes[0]?.queueStatus?.deferred).toBeGreaterThan(0);
    expect(state.pmg[0]?.mailStats?.countTotal).toBeGreaterThanOrEqual(0);
    expect(state.pmgBackups.length).toBeGreaterThan(0);
    expect(state.backups.pmg).toBe(state.pmgBackups);
    expect(s.manager.health().instances.map((i) => [i.instance, i.connection, i.warnings])).toEqual([
      ['bak-0', 'healthy', []],
      ['mail-0', 'healthy', []],
    ]);
    await s.manager.stop();
  });

  it('drives backoff, breaker and dead-letter queue from injected 5xx faults, then recovers', async () => {
    const s = stack(clock);
    s.manager.upsert(hvCfg());
    const fault = hv.control.addFault({ kind: 'error', status: 503, path: '/nodes' });
    try {
      for (let i = 0; i < 5; i++) await s.manager.pollNow('hv-0');
      const h = s.manager.health();
      expect(h.breakers[0]?.state).toBe('open');
      expect(h.deadLetter.tasks[0]).toMatchObject({ instance: 'hv-0', failures: 5 });
      expect(h.instances[0]?.pollStatus.lastError?.category).toBe('server');
      expect(s.state.get('nodes')).toEqual([]);
    } finally {
      hv.control.removeFault(fault.id);
    }
    await s.manager.pollNow('hv-0');
    expect(s.manager.health().deadLetter.count).toBe(0);
    expect(s.state.get('nodes')).toHaveLength(3);
    await s.manager.stop();
  });

  it('degrades instead of failing when a privilege is missing (403 on agent file-read)', async () => {
    const s = stack(clock);
    s.manager.upsert(hvCfg());
    const fault = hv.control.addFault({ kind: 'error', status: 403, path: '/nodes/*/qemu/*/agent/file-read' });
    try {
      await s.manager.pollNow('hv-0');
      expect(s.manager.health().instances[0]?.pollStatus.consecutiveFailures).toBe(0);
      const withAgent = s.state.get('vms').filter((v) => v.diskSource === 'guest-agent');
      expect(withAgent.length).toBeGreaterThan(0);
      expect(withAgent.every((v) => v.memorySource !== 'guest-agent')).toBe(true);
    } finally {
      hv.control.removeFault(fault.id);
    }
    await s.manager.stop();
  });

  it('dead-letters wrong credentials at once, never logging or reporting the secret', async () => {
    const { logger, lines } = createMemoryLogger('debug');
    const timers = new FakeTimers(clock);
    const state = new LiveState({ clock });
    const manager = new PollManager({ clock, timers, factories: collectorFactories, sink: state, logger });
    const secret = 'Sup3r-Secret-Value-42';
    manager.upsert({ ...hvCfg(), credentials: { type: 'token', tokenId: 'svc@pve!mon', secret } });
    manager.upsert({
      id: 'mail-x',
      kind: 'mail',
      name: 'm',
      host: mail.url,
      credentials: { type: 'password', username: 'svc@pmg', password: secret },
    });
    await Promise.all([manager.pollNow('hv-0'), manager.pollNow('mail-x')]);
    const health = manager.health();
    expect(health.instances.map((i) => i.deadLetter.reason)).toEqual(['permanent_failure', 'permanent_failure']);
    expect(lines().length).toBeGreaterThan(0);
    expect(lines().join('\n')).not.toContain(secret);
    expect(JSON.stringify(health)).not.toContain(secret);
    await manager.stop();
  });

  it('never crashes on malformed or truncated responses', async () => {
    const s = stack(clock);
    s.manager.upsert(hvCfg());
    await s.manager.pollNow('hv-0');
    for (const kind of ['malformed', 'truncate'] as const) {
      const whole = hv.control.addFault({ kind, path: '/nodes', count: 1 });
      await s.manager.pollNow('hv-0');
      expect(['malformed', 'connectivity']).toContain(s.manager.health().instances[0]?.pollStatus.lastError?.category);
      hv.control.removeFault(whole.id);
      const partial = hv.control.addFault({ kind, path: '/nodes/pve2/qemu' });
      await s.manager.pollNow('hv-0');
      const h = s.manager.health().instances[0];
      expect(h?.pollStatus.consecutiveFailures).toBe(0);
      expect(h?.warnings.some((w) => w.includes('pve2'))).toBe(true);
      expect(s.state.get('nodes').find((n) => n.node === 'pve2')?.status).toBe('warning');
      hv.control.removeFault(partial.id);
    }
    await s.manager.stop();
  });

  it('times out a request that never gets an answer (fake clock)', async () => {
    const s = stack(clock);
    s.manager.upsert({ ...hvCfg(), endpoints: [], timeoutMs: 5_000 });
    const fault = hv.control.addFault({ kind: 'timeout', path: '/nodes', count: 1 });
    const run = s.manager.pollNow('hv-0');
    while (hv.control.faults().find((f) => f.id === fault.id)?.hits === 0) await new Promise((r) => setImmediate(r));
    await s.timers.advance(5_000);
    await run;
    expect(s.manager.health().instances[0]?.pollStatus.lastError).toMatchObject({ category: 'connectivity' });
    await s.manager.stop();
  });

  it('pins the simulator certificate fingerprint over TLS and refuses another one', async () => {
    const tls = await startSimulator({
      kind: 'bak',
      port: 0,
      tls: true,
      clock: () => clock.now(),
      tokens: [{ tokenId: 'svc@pbs!mon', secret: 'tls-secret' }],
    });
    sims.push(tls);
    const s = stack(clock);
    const cfg = (fingerprint?: string, verifyTls?: boolean): InstanceConfig => ({
      id: 'bak-tls',
      kind: 'bak',
      name: 'tls',
      host: tls.url,
      credentials: { type: 'token', tokenId: 'svc@pbs!mon', secret: 'tls-secret' },
      ...(fingerprint ? { fingerprint } : {}),
      ...(verifyTls === undefined ? {} : { verifyTls }),
    });
    expect((await s.manager.test(cfg(tls.fingerprint))).kind).toBe('bak');
    await expect(s.manager.test(cfg())).rejects.toMatchObject({ category: 'tls' });
    const wrong = 'AA:'.repeat(31) + 'AA';
    await expect(s.manager.test(cfg(wrong, false))).rejects.toMatchObject({ category: 'tls' });
    await s.manager.stop();
  });
});
