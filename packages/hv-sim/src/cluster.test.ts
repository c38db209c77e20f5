import { afterEach, describe, expect, it } from 'vitest';
import type { Simulator } from './index.js';
import { getJson, sim, tokenHeader } from './test-support.js';

let s: Simulator | undefined;
afterEach(async () => {
  await s?.close();
  s = undefined;
});

type Entry = { type: string; name: string; local?: number; online?: number; ip?: string; nodeid?: number };

describe('hv cluster members', () => {
  it('gives every member its own loopback address on one port, each answering as the local node', async () => {
    s = await sim('hv', { cluster: 'demo', nodes: 3 });
    expect(s.urls.map((u) => u.node)).toEqual(['pve1', 'pve2', 'pve3']);
    expect(s.urls.map((u) => new URL(u.url).hostname)).toEqual(['127.0.0.1', '127.0.0.2', '127.0.0.3']);
    expect(new Set(s.urls.map((u) => new URL(u.url).port)).size).toBe(1);
    for (const m of s.urls) {
      const r = await getJson(`${m.url}/api2/json/cluster/status`, tokenHeader('hv'));
      const entries = r.body.data as Entry[];
      expect(entries[0]).toMatchObject({ type: 'cluster', name: 'demo', nodes: 3, quorate: 1 });
      expect(entries.filter((e) => e.local === 1).map((e) => e.name)).toEqual([m.node]);
      // The addresses /cluster/status reports are the ones members listen on: clients never leave loopback.
      const self = entries.find((e) => e.name === m.node);
      expect(self?.ip).toBe(new URL(m.url).hostname);
    }
  });

  it('loses quorum when a majority is offline', async () => {
    s = await sim('hv', { cluster: 'demo', nodes: 3 });
    s.control.setNodeOnline('pve2', false);
    s.control.setNodeOnline('pve3', false);
    const r = await getJson(`${s.url}/api2/json/cluster/status`, tokenHeader('hv'));
    expect((r.body.data as Array<Entry & { quorate?: number }>)[0]!.quorate).toBe(0);
  });

  it('without --cluster: one listener, /cluster/status lists only the local node', async () => {
    s = await sim('hv', { nodes: 1 });
    expect(s.urls).toHaveLength(1);
    const r = await getJson(`${s.url}/api2/json/cluster/status`, tokenHeader('hv'));
    expect(r.body.data).toEqual([
      { type: 'node', id: 'node/pve1', name: 'pve1', nodeid: 0, ip: '10.0.0.10', online: 1, local: 1, level: '' },
    ]);
  });

  it('binds the requested port on every member address', async () => {
    const probe = await sim('hv');
    const base = Number(new URL(probe.url).port);
    await probe.close();
    s = await sim('hv', { cluster: 'demo', nodes: 2, port: base });
    expect(s.urls.map((u) => Number(new URL(u.url).port))).toEqual([base, base]);
  });
});
