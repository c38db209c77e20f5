import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseEnvelope } from '../api.transport.js';
import {
  type BakContext,
  mapBakGroups,
  mapBakInstance,
  mapBakJobs,
  mapBakSnapshots,
  mapBakTasks,
  mapDatastoreList,
  mapDatastoreStatus,
  mapDatastoreUsage,
} from './bak.map.js';

const fixture = (name: string): unknown =>
  parseEnvelope(readFileSync(new URL(`./fixtures/${name}.json`, import.meta.url), 'utf8'), name).data;
const ctx: BakContext = { instance: 'bak-1', name: 'backup', host: 'https://10.0.0.50:8007', at: 1767268800000 };

describe('bak mappers', () => {
  it('maps datastores, usage (with an unreadable store) and per-store status', () => {
    expect(mapDatastoreList(fixture('datastores'))).toEqual([
      { store: 'main' },
      { store: 'offsite', maintenance: 'read-only' },
    ]);
    const usage = mapDatastoreUsage(fixture('datastore-usage'));
    expect(usage[0]).toEqual({
      name: 'main',
      total: 4398046511104,
      used: 1649267441664,
      free: 2748779069440,
      usage: 37.5,
      status: 'available',
    });
    expect(usage[1]).toMatchObject({ name: 'offsite', status: 'error', free: 0 });
    expect(usage[1]?.error).toContain('chunk store');
    expect(mapDatastoreStatus('main', fixture('datastore-status')).usage).toBe(37.5);
  });

  it('maps snapshots: object or string files, verification, protection', () => {
    const s = mapBakSnapshots(ctx, 'main', '', fixture('snapshots'));
    expect(s.map((b) => [b.backupType, b.vmid, b.verified, b.protected, b.files])).toEqual([
      ['vm', '100', true, false, ['index.json.blob', 'drive-scsi0.img.fidx']],
      ['ct', '101', false, true, ['root.pxar.didx', 'index.json.blob']],
      ['host', 'fileserver', false, false, []],
    ]);
    expect(s[0]).toMatchObject({
      backupTime: 1767229202000,
      size: 34359738368,
      owner: 'svc@pbs!backup',
      comment: 'web-01',
    });
    expect(s[0]?.id).toBe('bak-1-main--vm/100/1767229202');
  });

  it('maps groups and tasks', () => {
    expect(mapBakGroups(fixture('groups'))[0]).toEqual({
      backupType: 'vm',
      backupId: '100',
      lastBackup: 1767229202000,
      backupCount: 14,
      owner: 'svc@pbs!backup',
    });
    const t = mapBakTasks(fixture('tasks'));
    expect(t.map((x) => [x.type, x.status, x.endTime])).toEqual([
      ['backup', 'OK', 1767229402000],
      ['garbage_collection', 'running', undefined],
    ]);
  });

  it('maps job run states and builds the instance record', () => {
    const sync = mapBakJobs(fixture('admin-sync'));
    expect(sync.map((j) => [j.id, j.status, j.error])).toEqual([
      ['s-offsite', 'ok', undefined],
      ['s-broken', 'error', "remote 'pbs3' unreachable"],
    ]);
    const gc = mapBakJobs(fixture('admin-gc'), 'store');
    expect(gc[0]).toMatchObject({ id: 'main', status: 'ok', lastRun: 1767150000000, nextRun: 1767236400000 });
    const inst = mapBakInstance(
      ctx,
      fixture('version'),
      fixture('node-status'),
      mapDatastoreUsage(fixture('datastore-usage')),
      {
        backupJobs: [],
        syncJobs: sync,
        verifyJobs: [],
        pruneJobs: [],
        garbageJobs: gc,
      },
    );
    expect(inst).toMatchObject({
      id: 'bak-1',
      version: '4.0.14',
      status: 'online',
      memoryUsed: 4182917120,
      memoryTotal: 16729669632,
      memory: 25,
      uptime: 172800,
    });
    expect(inst.datastores).toHaveLength(2);
  });
});
