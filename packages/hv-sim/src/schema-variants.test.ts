import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Simulator } from './index.js';
import { validateRequest, validateReturns } from './schema-validate.js';
import { authHeaders, sim } from './test-support.js';
import type { Kind } from './types.js';

// Variants beyond the one request per endpoint: filters, stopped guests, offline nodes, pinned values.
const VARIANTS: Record<Kind, string[]> = {
  hv: [
    '/nodes',
    '/cluster/status',
    '/cluster/resources',
    '/cluster/resources?type=vm',
    '/cluster/resources?type=storage',
    '/cluster/resources?type=node',
    '/nodes/pve1/qemu?full=1',
    '/nodes/pve1/qemu',
    '/nodes/pve1/lxc',
    '/nodes/pve1/qemu/100/status/current',
    '/nodes/pve1/lxc/101/status/current',
    '/nodes/pve1/storage?content=backup',
    '/nodes/pve1/storage/local/content?content=backup',
    '/nodes/pve1/storage/local/content?vmid=100',
    '/nodes/pve1/storage/local-lvm/content',
    '/nodes/pve1/tasks?typefilter=vzdump&vmid=100&errors=1',
    '/nodes/pve1/tasks?since=0&limit=0',
    '/nodes/pve1/rrddata?timeframe=week&cf=MAX',
    '/nodes/pve1/qemu/100/rrddata?timeframe=day',
    '/nodes/pve1/qemu/100/snapshot',
    '/nodes/pve1/network?type=bridge',
    '/storage?type=dir',
  ],
  bak: [
    '/admin/datastore',
    '/admin/datastore/store1/status?verbose=true',
    '/admin/datastore/store1/snapshots?backup-type=ct',
    '/admin/datastore/store1/groups',
    '/status/datastore-usage',
    '/nodes/localhost/tasks?typefilter=backup&store=store1&limit=5',
    '/nodes/localhost/tasks?errors=true&since=0',
    '/admin/gc?store=store1',
  ],
  mail: [
    '/statistics/mail?year=2025&month=12',
    '/statistics/mailcount?starttime=1768000000&endtime=1768400000&timespan=7200',
    '/statistics/spamscores?starttime=1768000000',
    '/nodes/pmg1/postfix/queue/deferred?start=2&limit=3&sortfield=message_size&sortdir=DESC',
    '/nodes/pmg1/postfix/queue/hold',
    '/nodes/pmg1/postfix/qshape?queue=active',
    '/config/cluster/status?list_single_node=1',
  ],
};

for (const kind of ['hv', 'bak', 'mail'] as const) {
  describe(`${kind}: variants stay within the returns schema`, () => {
    let s: Simulator;
    let headers: Record<string, string>;
    beforeAll(async () => {
      s = await sim(kind, { nodes: 3, guestsPerNode: 6, cluster: kind === 'hv' ? 'v' : undefined });
      headers = await authHeaders(s, kind);
      if (kind === 'hv') {
        s.control.stopGuest(100);
        s.control.stopGuest(101);
        s.control.setNodeOnline('pve3', false);
        s.control.setGuest(102, { cpu: 1, tags: 'pinned', lock: 'backup' });
      }
    });
    afterAll(() => s.close());

    for (const p of VARIANTS[kind]) {
      it(p, async () => {
        const [path, qs] = p.split('?') as [string, string | undefined];
        const params = Object.fromEntries(new URLSearchParams(qs ?? ''));
        expect(validateRequest(kind, 'GET', path, params).ok).toBe(true);
        const r = await fetch(`${s.url}/api2/json${p}`, { headers });
        const text = await r.text();
        expect(r.status, text).toBe(200);
        expect(validateReturns(kind, 'GET', path, (JSON.parse(text) as { data: unknown }).data)).toEqual([]);
      });
    }
  });
}
