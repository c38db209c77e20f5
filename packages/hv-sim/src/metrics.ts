import { counter, smooth, unit } from './noise.js';
import type { GuestRec, NodeRec } from './types.js';
import type { World } from './world.js';

export interface GuestNow {
  running: boolean;
  cpu: number;
  mem: number;
  maxmem: number;
  disk: number;
  maxdisk: number;
  netin: number;
  netout: number;
  diskread: number;
  diskwrite: number;
  uptime: number;
  /** Guest-agent view of free memory, lower than maxmem - mem because of page cache. */
  memAvailable: number;
}

export interface NodeNow {
  online: boolean;
  cpu: number;
  maxcpu: number;
  mem: number;
  maxmem: number;
  uptime: number;
  rootUsed: number;
  rootTotal: number;
  loadavg: [number, number, number];
  wait: number;
  netin: number;
  netout: number;
}

// Metric keys: entity id * 32 + metric slot, so each series has its own noise stream.
const G = (vmid: number, slot: number) => vmid * 32 + slot;
const N = (index: number, slot: number) => 0x40000000 + index * 32 + slot;

export function guestNow(w: World, g: GuestRec, nowSec: number): GuestNow {
  const s = w.seed;
  const o = g.set;
  const maxmem = o.maxmem ?? g.maxmem;
  const maxdisk = o.maxdisk ?? g.maxdisk;
  const diskBase = 0.2 + 0.6 * unit(s, 31, g.vmid);
  const diskFrac = diskBase + 0.05 * smooth(s, G(g.vmid, 3), nowSec, 86400);
  const disk = o.disk ?? Math.floor(maxdisk * Math.min(diskFrac, 0.98));
  if (!g.running) {
    const zero = { cpu: 0, mem: 0, netin: 0, netout: 0, diskread: 0, diskwrite: 0, uptime: 0 };
    return { running: false, ...zero, maxmem, maxdisk, disk, memAvailable: maxmem };
  }
  const up = Math.max(0, nowSec - g.startedSec);
  const busy = unit(s, 32, g.vmid);
  const cpu = o.cpu ?? round4(Math.min(1, busy * 0.6 * smooth(s, G(g.vmid, 1), nowSec, 60) + 0.01));
  const memFrac = 0.3 + 0.5 * smooth(s, G(g.vmid, 2), nowSec, 300);
  const mem = o.mem ?? Math.floor(maxmem * memFrac);
  const phase = unit(s, 33, g.vmid) * 6.28;
  const rate = 1000 + 200000 * busy;
  return {
    running: true,
    cpu,
    mem,
    maxmem,
    disk,
    maxdisk,
    netin: o.netin ?? counter(rate, up, 600, phase),
    netout: o.netout ?? counter(rate * 0.6, up, 900, phase),
    diskread: o.diskread ?? counter(rate * 2, up, 1200, phase),
    diskwrite: o.diskwrite ?? counter(rate * 1.5, up, 700, phase),
    uptime: o.uptime ?? up,
    // The hypervisor counts page cache as used; the agent's MemAvailable shows the real headroom.
    memAvailable: o.memAvailable ?? Math.max(0, Math.floor(maxmem - mem * (0.55 + 0.3 * busy))),
  };
}

export function nodeNow(w: World, n: NodeRec, nowSec: number): NodeNow {
  const s = w.seed;
  const o = n.set;
  const maxmem = o.maxmem ?? n.maxmem;
  const rootTotal = o.rootTotal ?? n.rootTotal;
  const base = 0.05 + 0.4 * unit(s, 41, n.index);
  const cpu = o.cpu ?? round4(Math.min(1, base * (0.5 + smooth(s, N(n.index, 1), nowSec, 60))));
  const memFrac = 0.25 + 0.5 * smooth(s, N(n.index, 2), nowSec, 600);
  const maxcpu = o.maxcpu ?? n.maxcpu;
  const load = round2(cpu * maxcpu);
  const up = Math.max(0, nowSec - n.bootSec);
  return {
    online: n.online,
    cpu,
    maxcpu,
    mem: o.mem ?? Math.floor(maxmem * memFrac),
    maxmem,
    uptime: o.uptime ?? up,
    rootUsed: o.rootUsed ?? Math.floor(rootTotal * (0.1 + 0.3 * unit(s, 42, n.index))),
    rootTotal,
    loadavg: o.loadavg ?? [load, round2(load * 0.9), round2(load * 0.8)],
    wait: round4(0.02 * smooth(s, N(n.index, 3), nowSec, 120)),
    netin: counter(5e6, up, 600, n.index),
    netout: counter(3e6, up, 900, n.index),
  };
}

export function round4(x: number): number {
  return Math.round(x * 10000) / 10000;
}

export function round2(x: number): number {
  return Math.round(x * 100) / 100;
}
