import { afterEach, describe, expect, it } from 'vitest';
import type { Simulator } from './index.js';
import { authHeaders, getJson, sim } from './test-support.js';

// Endpoints svc polls that are not in the official schema extract: answered, but not schema-validated.
let s: Simulator | undefined;
afterEach(async () => {
  await s?.close();
  s = undefined;
});

describe('endpoints outside the schema extract', () => {
  it('hv: task status and log for a vzdump task, agent info, container interfaces, cluster options', async () => {
    s = await sim('hv');
    const h = await authHeaders(s, 'hv');
    const tasks = await getJson(`${s.url}/api2/json/nodes/pve1/tasks?typefilter=vzdump&limit=1`, h);
    const upid = (tasks.body.data as Array<{ upid: string }>)[0]!.upid;
    const st = await getJson(`${s.url}/api2/json/nodes/pve1/tasks/${encodeURIComponent(upid)}/status`, h);
    expect(st.body.data).toMatchObject({ upid, status: 'stopped', exitstatus: expect.any(String) });
    const log = await getJson(`${s.url}/api2/json/nodes/pve1/tasks/${encodeURIComponent(upid)}/log`, h);
    expect((log.body.data as Array<{ n: number; t: string }>)[0]).toMatchObject({
      n: 1,
      t: expect.stringMatching(/^INFO: starting new backup job/),
    });
    expect(log.body.total).toBe(6);
    const vm = [...s.state.guestById.values()].find((g) => g.type === 'qemu' && g.agent && g.running)!;
    const info = await getJson(`${s.url}/api2/json/nodes/${vm.node}/qemu/${vm.vmid}/agent/info`, h);
    expect(info.body.data).toMatchObject({ result: { version: expect.any(String) } });
    const ct = [...s.state.guestById.values()].find((g) => g.type === 'lxc' && g.running)!;
    const ifs = await getJson(`${s.url}/api2/json/nodes/${ct.node}/lxc/${ct.vmid}/interfaces`, h);
    expect((ifs.body.data as Array<{ name: string }>).map((i) => i.name)).toEqual(['lo', 'eth0']);
    expect((await getJson(`${s.url}/api2/json/cluster/options`, h)).status).toBe(200);
  });

  it('bak: datastore gc status and rrd history', async () => {
    s = await sim('bak');
    const h = await authHeaders(s, 'bak');
    const gc = await getJson(`${s.url}/api2/json/admin/datastore/store1/gc`, h);
    expect(gc.body.data).toMatchObject({ 'disk-bytes': expect.any(Number), 'removed-bytes': 0 });
    const rrd = await getJson(`${s.url}/api2/json/admin/datastore/store1/rrd?timeframe=day&cf=AVERAGE`, h);
    expect((rrd.body.data as unknown[]).length).toBe(70);
  });

  it('mail: attachment quarantine and relay domains', async () => {
    s = await sim('mail');
    const h = await authHeaders(s, 'mail');
    expect((await getJson(`${s.url}/api2/json/quarantine/attachmentstatus`, h)).body.data).toMatchObject({ count: 3 });
    expect((await getJson(`${s.url}/api2/json/config/domains`, h)).body.data).toHaveLength(2);
  });
});
