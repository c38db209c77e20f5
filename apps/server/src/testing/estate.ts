import type { Clock } from '@svc/platform';
import type { AreaDeps } from '../areas/area.js';
import { createMetricsArea, type MetricPoint } from '../areas/metrics/index.js';
import type { GuestRecord, HvPollResult, NodeRecord, StorageRecord } from '../collectors/index.js';
import type { Db } from '../platform/db/index.js';

/**
 * A synthetic hv estate for tests and benchmarks: `guests` guests spread over nodes of 50 guests, one
 * local storage per node, predictable names, statuses and tags. Deterministic for a given size.
 */
export function syntheticEstate(instance: string, guests: number, at: number): HvPollResult {
  const nodeCount = Math.max(1, Math.ceil(guests / 50));
  const nodes: NodeRecord[] = Array.from({ length: nodeCount }, (_, i) => node(instance, `node${i}`, at, i));
  const vms: GuestRecord[] = [];
  const containers: GuestRecord[] = [];
  for (let i = 0; i < guests; i++) {
    const g = guest(instance, nodes[i % nodeCount]!.node, 100 + i, at, i);
    (g.type === 'lxc' ? containers : vms).push(g);
  }
  const storage: StorageRecord[] = nodes.map((n, i) => ({
    id: `${instance}-${n.node}-local`,
    storage: 'local',
    name: 'local',
    node: n.node,
    instance,
    type: 'dir',
    status: 'available',
    total: 1e12,
    used: (i % 10) * 1e11,
    avail: 1e12 - (i % 10) * 1e11,
    free: 1e12 - (i % 10) * 1e11,
    usage: (i % 10) * 10,
    content: 'images,rootdir',
    shared: false,
    enabled: true,
    active: true,
  }));
  return { kind: 'hv', at, cluster: undefined, nodes, vms, containers, storage, warnings: [] };
}

const mem = (usage: number) => ({ total: 8e9, used: 8e7 * usage, free: 8e9 - 8e7 * usage, usage });

function node(instance: string, name: string, at: number, i: number): NodeRecord {
  return {
    id: `${instance}-${name}`,
    node: name,
    name,
    displayName: name,
    instance,
    status: i % 25 === 24 ? 'offline' : 'online',
    type: 'node',
    cpu: (i % 10) / 10,
    memory: mem(40),
    mem: 0,
    maxmem: 0,
    disk: { ...mem(30) },
    maxdisk: 0,
    uptime: 1000,
    loadAverage: [0.1, 0.1, 0.1],
    kernelVersion: 'k',
    pveVersion: 'v',
    cpuInfo: { model: 'cpu', cores: 8, sockets: 1, mhz: '3000' },
    lastSeen: at,
    connectionHealth: 'healthy',
    isClusterMember: false,
  };
}

const tagSets = ['prod;db', 'prod;web', 'dev', '', 'staging;web'];
const states = ['running', 'running', 'running', 'stopped', 'paused'];

function guest(instance: string, nodeName: string, vmid: number, at: number, i: number): GuestRecord {
  const lxc = i % 3 === 2;
  return {
    id: `${instance}:${nodeName}:${vmid}`,
    vmid,
    name: `${lxc ? 'ct' : 'vm'}-${String(i).padStart(6, '0')}`,
    node: nodeName,
    instance,
    status: states[i % states.length]!,
    type: lxc ? 'lxc' : 'qemu',
    cpu: (i % 100) / 100,
    cpus: 2,
    memory: mem(i % 90),
    mem: 0,
    maxmem: 0,
    memorySource: 'status',
    disk: mem(i % 70),
    diskSource: 'status',
    networkIn: i,
    networkOut: i * 2,
    diskRead: 0,
    diskWrite: 0,
    uptime: 100,
    template: false,
    tags: tagSets[i % tagSets.length],
    lastSeen: at - (i % 1000),
  };
}

/** Writes points through the metrics area's own write path (tests of areas that read history). */
export async function recordMetrics(db: Db, clock: Clock, points: MetricPoint[]): Promise<void> {
  const area = createMetricsArea({ db, clock } as unknown as AreaDeps, { hasFeature: () => true });
  await area.service.recordBatch(points);
}
