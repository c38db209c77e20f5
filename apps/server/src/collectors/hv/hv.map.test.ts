import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseEnvelope } from '../api.transport.js';
import {
  buildGuest,
  mapClusterResources,
  mapFsInfo,
  mapGuestList,
  mapSnapshots,
  parseMeminfo,
} from './hv.guest.map.js';
import {
  type HvContext,
  mapBackupTasks,
  mapClusterStatus,
  mapDisks,
  mapNodeList,
  mapNodeStatus,
  mapStorage,
  mapStorageBackups,
} from './hv.map.js';

const fixture = (name: string): unknown =>
  parseEnvelope(readFileSync(new URL(`./fixtures/${name}.json`, import.meta.url), 'utf8'), name).data;

const at = Date.UTC(2026, 0, 1, 12);
const ctx: HvContext = { instance: 'lab', at, clusterName: 'prod' };

describe('hv node mappers', () => {
  it('maps /nodes, keeping offline nodes without metrics', () => {
    const nodes = mapNodeList(fixture('nodes'));
    expect(nodes.map((n) => [n.node, n.status])).toEqual([
      ['pve1', 'online'],
      ['pve2', 'online'],
      ['pve3', 'offline'],
    ]);
    expect(nodes[2]).toMatchObject({ cpu: 0, maxmem: 0 });
  });

  it('maps node status with MemAvailable-based usage, load average strings and versions', () => {
    const [item] = mapNodeList(fixture('nodes'));
    const n = mapNodeStatus(ctx, item!, fixture('node-status'));
    expect(n).toMatchObject({
      id: 'prod-pve1',
      instance: 'lab',
      status: 'online',
      isClusterMember: true,
      clusterName: 'prod',
      loadAverage: [0.41, 0.52, 0.48],
      pveVersion: 'pve-manager/9.1.3/a2b9d2bbd09b3e0c',
      cpuInfo: { model: 'AMD Ryzen 7 5800X 8-Core Processor', cores: 8, sockets: 1, mhz: '3799.998' },
      uptime: 864215,
      lastSeen: at,
    });
    expect(n.memory.used).toBe(67323547648 - 52101234688);
    expect(n.memory.usage).toBeCloseTo(22.61, 1);
    expect(n.disk).toMatchObject({ total: 100861726720, used: 9847275520, free: 85857714176 });
  });

  it('names standalone nodes by instance and survives a missing status body', () => {
    const n = mapNodeStatus({ instance: 'lab', at }, mapNodeList(fixture('nodes'))[2]!, undefined);
    expect(n).toMatchObject({ id: 'lab-pve3', status: 'offline', isClusterMember: false, loadAverage: [] });
  });

  it('maps /cluster/status (0/1 booleans) and a standalone node', () => {
    const c = mapClusterStatus(fixture('cluster-status'));
    expect(c.clusterName).toBe('prod');
    expect(c.quorate).toBe(true);
    expect(c.members).toEqual([
      { name: 'pve1', ip: '10.0.0.11', online: true, local: true, nodeid: 1 },
      { name: 'pve2', ip: '10.0.0.12', online: true, local: false, nodeid: 2 },
      { name: 'pve3', ip: '10.0.0.13', online: false, local: false, nodeid: 3 },
    ]);
    const solo = mapClusterStatus(fixture('cluster-status-standalone'));
    expect(solo.clusterName).toBeUndefined();
    expect(solo.members).toHaveLength(1);
  });

  it('maps /cluster/resources into guests and nodes', () => {
    const r = mapClusterResources(fixture('cluster-resources'));
    expect(r.nodes).toEqual(['pve1']);
    expect(r.guests.map((g) => [g.type, g.node, g.item.vmid])).toEqual([
      ['qemu', 'pve1', 100],
      ['lxc', 'pve1', 101],
    ]);
  });
});

describe('hv guest mappers', () => {
  const [web, win, tmpl] = mapGuestList(fixture('qemu'));

  it('maps qemu and lxc lists (string vmid, template 0/1, tags, lock)', () => {
    expect([web?.vmid, win?.vmid, tmpl?.vmid]).toEqual([100, 102, 9000]);
    expect(tmpl?.template).toBe(true);
    expect(web?.tags).toBe('prod;web');
    expect(win?.lock).toBe('backup');
    const lxc = mapGuestList(fixture('lxc'));
    expect(lxc.map((c) => [c.vmid, c.status, c.disk])).toEqual([
      [101, 'running', 1073741824],
      [103, 'stopped', 0],
    ]);
  });

  it('uses guest-agent MemAvailable and fsinfo for a VM with the agent', () => {
    const g = buildGuest(ctx, 'pve1', 'qemu', web!, {
      status: fixture('qemu-status-agent'),
      meminfo: fixture('agent-meminfo'),
      fsinfo: fixture('agent-fsinfo'),
    });
    expect(g.memorySource).toBe('guest-agent');
    expect(g.memory.used).toBe((4026532 - 3145728) * 1024);
    expect(g.memory.total).toBe(4294967296);
    expect(g.memory.used).toBeLessThan(web!.mem); // the list's figure counts page cache
    expect(g.diskSource).toBe('guest-agent');
    expect(g.disk.total).toBe(33756561408 + 129718272);
    expect(g.disks?.map((d) => d.mountpoint)).toEqual(['/', '/boot/efi']);
    expect(g.agent).toBe(true);
    expect(g.id).toBe('lab:pve1:100');
  });

  it('falls back to balloon info, then the list figure, and says why the disk is unknown', () => {
    const balloon = buildGuest(ctx, 'pve1', 'qemu', web!, { status: fixture('qemu-status-agent') });
    expect(balloon.memorySource).toBe('balloon');
    expect(balloon.memory.used).toBe(4123168768 - 2684354560);
    const plain = buildGuest(ctx, 'pve1', 'qemu', win!, {
      status: fixture('qemu-status-noagent'),
      agentReason: 'agent-not-enabled',
    });
    expect(plain.memorySource).toBe('status');
    expect(plain.memory.used).toBe(8589934592);
    expect(plain).toMatchObject({ diskSource: 'none', diskStatusReason: 'agent-not-enabled', agent: false });
    expect(buildGuest(ctx, 'pve1', 'qemu', tmpl!).diskStatusReason).toBe('vm-stopped');
  });

  it('uses the container root filesystem for lxc disk', () => {
    const [dns] = mapGuestList(fixture('lxc'));
    const c = buildGuest(ctx, 'pve1', 'lxc', dns!);
    expect(c).toMatchObject({ type: 'lxc', diskSource: 'status', memorySource: 'status', tags: 'infra' });
    expect(c.disk.usage).toBe(12.5);
  });

  it('parses meminfo and fsinfo defensively', () => {
    expect(parseMeminfo({ content: 'garbage' })).toBeUndefined();
    expect(parseMeminfo(null)).toBeUndefined();
    expect(mapFsInfo({ result: 'nope' })).toEqual([]);
    expect(mapFsInfo(undefined)).toEqual([]);
  });

  it('maps snapshots without the current pseudo-entry', () => {
    const s = mapSnapshots(ctx, 'pve1', 'qemu', 100, fixture('snapshots'));
    expect(s).toEqual([
      {
        id: 'lab-pve1-100-before-upgrade',
        name: 'before-upgrade',
        node: 'pve1',
        instance: 'lab',
        type: 'qemu',
        vmid: 100,
        time: 1767139200000,
        description: 'pre 9.1 upgrade',
        vmstate: true,
      },
      expect.objectContaining({ name: 'after-upgrade', parent: 'before-upgrade', vmstate: false }),
    ]);
  });
});

describe('hv storage, backup and disk mappers', () => {
  it('maps storage with shared storage under one cluster id', () => {
    const s = mapStorage(ctx, 'pve1', fixture('storage'));
    expect(s.map((x) => [x.id, x.status, x.shared])).toEqual([
      ['lab-pve1-local', 'available', false],
      ['lab-pve1-local-lvm', 'available', false],
      ['lab-cluster-nfs-backup', 'available', true],
      ['lab-cluster-pbs', 'unavailable', true],
      ['lab-pve1-old', 'disabled', false],
    ]);
    expect(s[1]?.usage).toBe(25);
  });

  it('maps backup content including bak-backed storage verification', () => {
    const b = mapStorageBackups(ctx, 'pve1', 'nfs-backup', fixture('storage-content-backup'));
    expect(b.map((x) => [x.type, x.vmid, x.protected, x.verified, x.time])).toEqual([
      ['qemu', 100, true, false, 1767229202000],
      ['lxc', 101, false, false, 1767229800000],
      ['qemu', 100, false, true, 1767229202000],
    ]);
    expect(b[0]?.notes).toBe('web-01 nightly');
  });

  it('maps vzdump tasks: ok, failed, running', () => {
    const t = mapBackupTasks(ctx, 'pve1', fixture('tasks-vzdump'));
    expect(t.map((x) => [x.vmid, x.status, x.error, x.endTime])).toEqual([
      [100, 'OK', undefined, 1767229402000],
      [101, 'error', 'job errors', 1767229800000],
      [0, 'running', undefined, undefined],
    ]);
  });

  it('maps physical disks with N/A wearout', () => {
    const d = mapDisks(ctx, 'pve1', fixture('disks-list'));
    expect(d.map((x) => [x.id, x.type, x.wearout, x.health])).toEqual([
      ['lab-pve1-nvme0n1', 'nvme', 97, 'PASSED'],
      ['lab-pve1-sda', 'hdd', null, 'UNKNOWN'],
    ]);
  });
});
