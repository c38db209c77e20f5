import type { GuestRecord, HvPollResult, NodeRecord } from '../collectors/index.js';

/** Small deterministic hv poll results for realtime tests and benchmarks. */
export function guest(instance: string, vmid: number, at: number, cpu = 0.1, note = ''): GuestRecord {
  return {
    id: `${instance}:pve1:${vmid}`,
    vmid,
    name: `vm${vmid}${note}`,
    node: 'pve1',
    instance,
    status: 'running',
    type: 'qemu',
    cpu,
    cpus: 2,
    memory: { total: 4_294_967_296, used: 1_073_741_824, free: 3_221_225_472, usage: 25 },
    mem: 1_073_741_824,
    maxmem: 4_294_967_296,
    memorySource: 'guest-agent',
    disk: { total: 34_359_738_368, used: 8_589_934_592, free: 25_769_803_776, usage: 25 },
    diskSource: 'guest-agent',
    networkIn: 1000,
    networkOut: 2000,
    diskRead: 3000,
    diskWrite: 4000,
    uptime: 3600,
    template: false,
    lastSeen: at,
  };
}

export function hvNode(instance: string, at: number): NodeRecord {
  return {
    id: `${instance}-pve1`,
    node: 'pve1',
    name: 'pve1',
    displayName: 'pve1',
    instance,
    status: 'online',
    type: 'node',
    cpu: 0.2,
    memory: { total: 100, used: 50, free: 50, usage: 50 },
    mem: 50,
    maxmem: 100,
    disk: { total: 10, used: 1, free: 9, usage: 10 },
    maxdisk: 10,
    uptime: 1,
    loadAverage: [0.1, 0.2, 0.3],
    kernelVersion: '6.8',
    pveVersion: '8.2',
    cpuInfo: { model: 'x', cores: 8, sockets: 1, mhz: '3000' },
    lastSeen: at,
    connectionHealth: 'healthy',
    isClusterMember: false,
  };
}

/** One hv poll of `guests` VMs; `cpuOf(vmid)` lets a caller change some of them between polls. */
export function hvPoll(
  instance: string,
  at: number,
  vmids: readonly number[],
  cpuOf: (vmid: number) => number = () => 0.1,
): HvPollResult {
  return {
    kind: 'hv',
    at,
    cluster: undefined,
    nodes: [hvNode(instance, at)],
    vms: vmids.map((v) => guest(instance, v, at, cpuOf(v))),
    containers: [],
    storage: [],
    warnings: [],
  };
}

export function range(n: number, from = 100): number[] {
  return Array.from({ length: n }, (_, i) => from + i);
}
