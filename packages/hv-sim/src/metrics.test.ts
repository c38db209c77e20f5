import { afterEach, describe, expect, it } from 'vitest';
import type { Simulator } from './index.js';
import { fakeClock, getJson, sim, T0, tokenHeader } from './test-support.js';

const open: Simulator[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

async function start(seed: string, clock: () => number) {
  const s = await sim('hv', { seed, clock, nodes: 3, guestsPerNode: 6, cluster: 'det' });
  open.push(s);
  return s;
}

const PATHS = [
  '/cluster/resources',
  '/nodes/pve2/qemu',
  '/nodes/pve2/lxc',
  '/nodes/pve1/status',
  '/nodes/pve1/storage/local/content?content=backup',
  '/nodes/pve1/tasks?typefilter=vzdump',
];

type Row = {
  vmid: number;
  cpu: number;
  mem: number;
  maxmem: number;
  netin: number;
  netout: number;
  diskread: number;
  uptime: number;
  status: string;
};

describe('determinism and movement', () => {
  it('same seed and time give the same bytes; another seed gives other values', async () => {
    const a = await start('alpha', () => T0);
    const b = await start('alpha', () => T0);
    const c = await start('beta', () => T0);
    for (const p of PATHS) {
      const [x, y, z] = await Promise.all([a, b, c].map((s) => getJson(`${s.url}/api2/json${p}`, tokenHeader('hv'))));
      expect(x!.status).toBe(200);
      expect(x!.text).toBe(y!.text);
      if (p.includes('qemu') || p.includes('resources')) expect(x!.text).not.toBe(z!.text);
    }
  });

  it('metrics move smoothly within bounds; counters and uptime only grow', async () => {
    const clock = fakeClock();
    const s = await start('move', clock.now);
    let prev: Row[] | undefined;
    let cpuChanged = false;
    for (let step = 0; step < 30; step++) {
      const r = await getJson(`${s.url}/api2/json/nodes/pve1/qemu`, tokenHeader('hv'));
      const rows = r.body.data as Row[];
      for (const g of rows) {
        expect(g.cpu).toBeGreaterThanOrEqual(0);
        expect(g.cpu).toBeLessThanOrEqual(1);
        expect(g.mem).toBeLessThanOrEqual(g.maxmem);
        const before = prev?.find((x) => x.vmid === g.vmid);
        if (before && g.status === 'running') {
          expect(g.netin).toBeGreaterThanOrEqual(before.netin);
          expect(g.netout).toBeGreaterThanOrEqual(before.netout);
          expect(g.diskread).toBeGreaterThanOrEqual(before.diskread);
          expect(g.uptime).toBe(before.uptime + 10);
          // Smooth: a 10 s poll never jumps by more than a fraction of the range.
          expect(Math.abs(g.cpu - before.cpu)).toBeLessThan(0.35);
          if (g.cpu !== before.cpu) cpuChanged = true;
        }
      }
      prev = rows;
      clock.advance(10_000);
    }
    expect(cpuChanged).toBe(true);
  });

  it('VM disk is 0 in the lists (as on the real API) and the agent fsinfo carries the usage', async () => {
    const s = await start('agent', () => T0);
    const vm = [...s.state.guestById.values()].find((g) => g.type === 'qemu' && g.agent && g.running)!;
    const list = await getJson(`${s.url}/api2/json/nodes/${vm.node}/qemu`, tokenHeader('hv'));
    expect((list.body.data as Array<{ vmid: number; disk: number }>).find((g) => g.vmid === vm.vmid)!.disk).toBe(0);
    const fs = await getJson(`${s.url}/api2/json/nodes/${vm.node}/qemu/${vm.vmid}/agent/get-fsinfo`, tokenHeader('hv'));
    const root = (fs.body.data as { result: Array<Record<string, number | string>> }).result[0]!;
    expect(root.mountpoint).toBe('/');
    expect(root['used-bytes']).toBeGreaterThan(0);
    const mem = await getJson(
      `${s.url}/api2/json/nodes/${vm.node}/qemu/${vm.vmid}/agent/file-read?file=/proc/meminfo`,
      tokenHeader('hv'),
    );
    expect((mem.body.data as { content: string }).content).toMatch(
      /^MemTotal:\s+\d+ kB\nMemFree:\s+\d+ kB\nMemAvailable:\s+\d+ kB\n/,
    );
    const noAgent = [...s.state.guestById.values()].find((g) => g.type === 'qemu' && !g.agent)!;
    const err = await getJson(
      `${s.url}/api2/json/nodes/${noAgent.node}/qemu/${noAgent.vmid}/agent/get-fsinfo`,
      tokenHeader('hv'),
    );
    expect(err.status).toBe(500);
    expect(err.statusText).toBe('No QEMU guest agent configured');
  });

  it('builds a 500-node, 2,500-guest estate and serves it without rebuilding per request', async () => {
    const s = await sim('hv', { nodes: 500, guestsPerNode: 5, cluster: 'big' });
    open.push(s);
    const r = await getJson(`${s.url}/api2/json/cluster/resources?type=vm`, tokenHeader('hv'));
    expect((r.body.data as unknown[]).length).toBe(2500);
    const node = await getJson(`${s.url}/api2/json/nodes/pve500/qemu`, tokenHeader('hv'));
    expect((node.body.data as unknown[]).length).toBe(3);
    expect(s.urls).toHaveLength(500);
  });
});
