import { FakeClock } from '@svc/platform';
import { describe, expect, it } from 'vitest';
import type { GuestRecord, HvPollResult, MailPollResult, NodeRecord } from '../collectors/index.js';
import { LiveState, type StateDelta } from './live-state.js';

const at0 = Date.UTC(2026, 0, 1);

function node(name: string, at: number, cpu = 0.1): NodeRecord {
  return {
    id: `lab-${name}`,
    node: name,
    name,
    displayName: name,
    instance: 'lab',
    status: 'online',
    type: 'node',
    cpu,
    memory: { total: 100, used: 50, free: 50, usage: 50 },
    mem: 50,
    maxmem: 100,
    disk: { total: 10, used: 1, free: 9, usage: 10 },
    maxdisk: 10,
    uptime: 1,
    loadAverage: [0.1, 0.2, 0.3],
    kernelVersion: 'k',
    pveVersion: 'v',
    cpuInfo: { model: 'm', cores: 1, sockets: 1, mhz: '1' },
    lastSeen: at,
    connectionHealth: 'healthy',
    isClusterMember: false,
  };
}

function vm(vmid: number, at: number, cpu = 0): GuestRecord {
  return {
    id: `lab:pve1:${vmid}`,
    vmid,
    name: `vm${vmid}`,
    node: 'pve1',
    instance: 'lab',
    status: 'running',
    type: 'qemu',
    cpu,
    cpus: 1,
    memory: { total: 100, used: 10, free: 90, usage: 10 },
    mem: 10,
    maxmem: 100,
    memorySource: 'status',
    disk: { total: 10, used: 0, free: 10, usage: 0 },
    diskSource: 'none',
    networkIn: 0,
    networkOut: 0,
    diskRead: 0,
    diskWrite: 0,
    uptime: 1,
    template: false,
    lastSeen: at,
  };
}

function hvResult(at: number, vms: GuestRecord[], nodes = [node('pve1', at)]): HvPollResult {
  return { kind: 'hv', at, cluster: undefined, nodes, vms, containers: [], storage: [], warnings: [] };
}

function setup(offlineAfter = 3) {
  const clock = new FakeClock(at0);
  const state = new LiveState({ clock, offlineAfter });
  const deltas: StateDelta[] = [];
  state.subscribe((d) => deltas.push(d));
  return { clock, state, deltas };
}

describe('LiveState', () => {
  it('builds the v5 payload from poll results', () => {
    const { state } = setup();
    state.applyPoll('lab', hvResult(at0, [vm(100, at0), vm(101, at0)]));
    const { seq, state: payload } = state.snapshot();
    expect(seq).toBe(1);
    expect(payload.nodes.map((n) => n.id)).toEqual(['lab-pve1']);
    expect(payload.vms.map((v) => v.vmid)).toEqual([100, 101]);
    expect(payload).toMatchObject({
      containers: [],
      storage: [],
      pbs: [],
      pmg: [],
      lastUpdate: at0,
      connectionHealth: { 'hv-lab': true },
    });
    expect(payload.pveBackups).toEqual({ backupTasks: [], storageBackups: [], guestSnapshots: [] });
    expect(payload.stats).toEqual({ nodes: 1, vms: 2, containers: 0, storage: 0 });
    expect(state.snapshot().state).toBe(payload); // cached until the next change
  });

  it('emits only changed, added and removed resources', () => {
    const { state, deltas } = setup();
    state.applyPoll('lab', hvResult(at0, [vm(100, at0), vm(101, at0)]));
    expect(deltas[0]?.upserts.vms).toHaveLength(2);
    // next poll: 100 unchanged (only lastSeen moved), 101 changed, 102 new
    const t1 = at0 + 10_000;
    state.applyPoll('lab', hvResult(t1, [vm(100, t1), vm(101, t1, 0.5), vm(102, t1)], [node('pve1', t1)]));
    const d = deltas[1]!;
    expect(d.seq).toBe(2);
    expect(d.upserts.vms?.map((v) => v.vmid)).toEqual([101, 102]);
    expect(d.upserts.nodes).toBeUndefined();
    expect(d.removed).toEqual({});
    // the full state still carries the fresh lastSeen of unchanged resources
    expect(state.snapshot().state.vms.find((v) => v.vmid === 100)?.lastSeen).toBe(t1);
    const t2 = t1 + 10_000;
    state.applyPoll('lab', hvResult(t2, [vm(101, t2, 0.5), vm(102, t2)], [node('pve1', t2)]));
    expect(deltas[2]?.removed).toEqual({ vms: ['lab:pve1:100'] });
    expect(deltas[2]?.upserts).toEqual({});
  });

  it('emits nothing when nothing changed', () => {
    const { state, deltas } = setup();
    state.applyPoll('lab', hvResult(at0, [vm(100, at0)]));
    state.applyPoll('lab', hvResult(at0 + 10_000, [vm(100, at0 + 10_000)], [node('pve1', at0 + 10_000)]));
    expect(deltas).toHaveLength(1);
  });

  it('marks an instance warning, then offline after N failed polls, and online again on success', () => {
    const { state, deltas } = setup(3);
    state.applyPoll('lab', hvResult(at0, [vm(100, at0)]));
    state.applyFailure('lab', 'hv', new Error('x'), 1);
    expect(state.get('nodes')[0]).toMatchObject({ status: 'warning', connectionHealth: 'degraded' });
    expect(state.get('vms')[0]?.status).toBe('running');
    state.applyFailure('lab', 'hv', new Error('x'), 2);
    state.applyFailure('lab', 'hv', new Error('x'), 3);
    expect(state.get('nodes')[0]).toMatchObject({ status: 'offline', connectionHealth: 'error' });
    expect(state.get('vms')[0]?.status).toBe('unknown');
    expect(state.snapshot().state.connectionHealth).toEqual({ 'hv-lab': false });
    expect(deltas.at(-1)?.connectionHealth).toEqual({ 'hv-lab': false });
    const n = deltas.length;
    state.applyFailure('lab', 'hv', new Error('x'), 4);
    expect(deltas).toHaveLength(n); // already offline: no new delta
    state.applyPoll('lab', hvResult(at0 + 60_000, [vm(100, at0 + 60_000)], [node('pve1', at0 + 60_000)]));
    expect(state.get('nodes')[0]?.status).toBe('online');
    expect(deltas.at(-1)?.connectionHealth).toEqual({ 'hv-lab': true });
  });

  it('keeps slow collections when a poll carries none, and removes everything of a removed instance', () => {
    const { state, deltas } = setup();
    const withSlow = hvResult(at0, [vm(100, at0)]);
    withSlow.slow = {
      backups: [],
      backupTasks: [],
      disks: [],
      snapshots: [
        { id: 's1', name: 's', node: 'pve1', instance: 'lab', type: 'qemu', vmid: 100, time: 1, vmstate: false },
      ],
    };
    state.applyPoll('lab', withSlow);
    state.applyPoll('lab', hvResult(at0 + 10_000, [vm(100, at0)]));
    expect(state.get('guestSnapshots')).toHaveLength(1);
    const mail: MailPollResult = {
      kind: 'mail',
      at: at0,
      warnings: [],
      instance: {
        id: 'gw',
        name: 'gw',
        host: 'h',
        status: 'online',
        version: '9',
        nodes: [],
        connectionHealth: 'healthy',
        lastSeen: at0,
      },
    };
    state.applyPoll('gw', mail);
    state.removeInstance('lab');
    expect(state.counts()).toMatchObject({ nodes: 0, vms: 0, guestSnapshots: 0, pmg: 1 });
    expect(deltas.at(-1)?.removed).toMatchObject({
      nodes: ['lab-pve1'],
      vms: ['lab:pve1:100'],
      guestSnapshots: ['s1'],
    });
  });

  it('does not grow across poll cycles at a fixed estate', () => {
    const { state } = setup();
    for (let i = 0; i < 200; i++) {
      const t = at0 + i * 10_000;
      state.applyPoll('lab', hvResult(t, [vm(100, t, i % 7), vm(101, t)], [node('pve1', t, i % 3)]));
    }
    expect(state.counts()).toMatchObject({ nodes: 1, vms: 2 });
    expect(state.snapshot().seq).toBeLessThanOrEqual(200);
  });
});
