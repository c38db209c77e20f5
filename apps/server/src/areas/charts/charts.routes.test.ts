import type { Scope } from '@svc/contract';
import { chartRanges } from '@svc/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '../../platform/http/principal.js';
import { LiveState } from '../../state/index.js';
import { createTestApp, type TestApp } from '../../testing/app.js';
import { recordMetrics, syntheticEstate } from '../../testing/estate.js';

const AT = Date.UTC(2026, 10, 22, 12, 0, 0);

function tokenWith(scopes: Scope[]): () => Promise<Principal> {
  return async () => ({ kind: 'token', username: 't', isAdmin: false, scopes, orgId: 'default' });
}

describe('charts, storage, backups and snapshots', () => {
  let t: TestApp;
  const estate = syntheticEstate('hv1', 6, AT);
  const node = estate.nodes[0]!;
  const vm = estate.vms[0]!;
  const store = estate.storage[0]!;
  beforeAll(async () => {
    estate.slow = {
      backups: [
        {
          id: 'hv1-local:backup/vzdump-qemu-100.vma.zst',
          storage: 'local',
          node: node.node,
          instance: 'hv1',
          type: 'qemu',
          vmid: 100,
          time: 1_700_000_000,
          ctime: 1_700_000_000,
          size: 10,
          format: 'vma.zst',
          protected: false,
          volid: 'local:backup/x',
          isPBS: false,
          verified: false,
        },
      ],
      backupTasks: [
        {
          id: 't1',
          node: node.node,
          instance: 'hv1',
          type: 'vzdump',
          vmid: 100,
          status: 'OK',
          startTime: 1_700_000_000,
        },
      ],
      snapshots: [
        {
          id: 's-old',
          name: 'old',
          node: node.node,
          instance: 'hv1',
          type: 'qemu',
          vmid: 100,
          time: 1_600_000_000,
          vmstate: false,
        },
        {
          id: 's-new',
          name: 'new',
          node: node.node,
          instance: 'hv1',
          type: 'qemu',
          vmid: 100,
          time: 1_700_000_500,
          vmstate: true,
        },
      ],
      disks: [],
    };
    const state = new LiveState({ clock: { now: () => AT } });
    state.applyPoll('hv1', estate);
    state.applyPoll('bak1', {
      kind: 'bak',
      at: AT,
      warnings: [],
      instance: {
        id: 'bak1',
        name: 'bak',
        host: 'https://bak:8007',
        status: 'online',
        version: '3',
        cpu: 0.1,
        memory: 10,
        memoryUsed: 1,
        memoryTotal: 10,
        uptime: 1,
        datastores: [],
        backupJobs: [],
        syncJobs: [],
        verifyJobs: [],
        pruneJobs: [],
        garbageJobs: [],
        connectionHealth: 'healthy',
        lastSeen: AT,
      },
      slow: {
        backups: [
          {
            id: 'b1',
            instance: 'bak1',
            datastore: 'main',
            namespace: '',
            backupType: 'vm',
            vmid: '100',
            backupTime: 1_700_000_100,
            size: 20,
            protected: true,
            verified: true,
          },
        ],
      },
    });
    t = await createTestApp({ overrides: { state, authenticate: tokenWith(['monitoring:read']) } });
    const now = t.clock.now();
    const points = [];
    for (let i = 0; i < 200; i++) {
      const timestamp = now - 2 * 86_400_000 + i * 864_000;
      points.push({
        orgId: 'default',
        resourceType: 'node' as const,
        resourceId: node.id,
        metric: 'cpu' as const,
        value: 50,
        timestamp,
      });
    }
    for (let i = 0; i < 60; i++) {
      const timestamp = now - 600_000 + i * 10_000;
      points.push(
        {
          orgId: 'default',
          resourceType: 'vm' as const,
          resourceId: vm.id,
          metric: 'memory' as const,
          value: i,
          timestamp,
        },
        {
          orgId: 'default',
          resourceType: 'storage' as const,
          resourceId: store.id,
          metric: 'disk' as const,
          value: 42,
          timestamp,
        },
      );
    }
    await recordMetrics(t.db, t.clock, points);
  });
  afterAll(() => t.close());
  const get = async (url: string) => {
    const res = await t.app.inject({ method: 'GET', url });
    return { status: res.statusCode, body: res.json() };
  };

  it.each(chartRanges.map((r) => [r]))('charts at range %s: every node, guest and storage pool', async (range) => {
    const { status, body } = await get(`/api/charts?range=${range}`);
    expect(status).toBe(200);
    expect(body.range).toBe(range);
    expect(Object.keys(body.nodes)).toEqual(estate.nodes.map((n) => n.id));
    expect(Object.keys(body.guests)).toHaveLength(6);
    expect(body.end - body.start).toBeGreaterThanOrEqual(5 * 60_000);
    for (const p of body.guests[vm.id].memory) expect(p.timestamp).toBeGreaterThanOrEqual(body.start - 60_000);
  });

  it('series come from the metrics store, within the range', async () => {
    const short = (await get('/api/charts?range=15m')).body;
    expect(short.guests[vm.id].memory.length).toBeGreaterThan(5);
    expect(short.storage[store.id].disk.at(-1).value).toBe(42);
    expect(short.nodes[node.id].cpu.length).toBeLessThanOrEqual(2);
    expect((await get('/api/charts?range=7d')).body.nodes[node.id].cpu.length).toBeGreaterThan(10);
  });

  it.each([['2h'], ['1d'], ['banana']])('range %s is refused with 400 naming what range accepts', async (range) => {
    const { status, body } = await get(`/api/charts?range=${range}`);
    expect(status).toBe(400);
    expect(body.details.issues[0].field).toBe('range');
    expect(body.message).toMatch(/5m, 15m, 30m, 1h, 4h, 12h, 24h, 7d/);
    expect((await get(`/api/storage-charts?range=${range}`)).status).toBe(400);
  });

  it('storage charts carry capacity and usage series', async () => {
    const { body } = await get('/api/storage-charts?range=30m');
    expect(body.storage[store.id]).toMatchObject({ name: 'local', node: node.node, total: 1e12 });
    expect(body.storage[store.id].points.length).toBeGreaterThan(0);
  });

  it('storage per node and pool; backups by source and unified; snapshots newest first', async () => {
    const storage = (await get('/api/storage/')).body;
    expect(storage.meta.total).toBe(estate.storage.length);
    expect(storage.nodes[node.node].pools).toBe(1);
    const hv = (await get('/api/backups/hv')).body;
    expect(hv.meta).toEqual({ totalBackupTasks: 1, totalStorageBackups: 1, totalGuestSnapshots: 2 });
    const bak = (await get('/api/backups/bak')).body;
    expect(bak.meta.totalBackups).toBe(1);
    expect(bak.data.backups[0].datastore).toBe('main');
    const all = (await get('/api/backups')).body;
    expect(all.meta).toMatchObject({ totalStorageBackups: 1, totalBakBackups: 1, totalMailBackups: 0 });
    const unified = (await get('/api/backups/unified')).body;
    expect(unified.meta).toEqual({ total: 2, bySource: { hv: 1, bak: 1 } });
    expect(unified.data.map((b: { source: string }) => b.source)).toEqual(['bak', 'hv']);
    expect(unified.data[0].time).toBe(1_700_000_100_000);
    const snaps = (await get('/api/snapshots')).body;
    expect(snaps.data.map((s: { name: string }) => s.name)).toEqual(['new', 'old']);
  });
});
