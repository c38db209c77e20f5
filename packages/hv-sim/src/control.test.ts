import { afterEach, describe, expect, it } from 'vitest';
import type { Simulator } from './index.js';
import { fakeClock, getJson, sim, tokenHeader } from './test-support.js';

let s: Simulator | undefined;
afterEach(async () => {
  await s?.close();
  s = undefined;
});

async function ctl(method: string, path: string, body?: unknown) {
  const r = await fetch(`${s!.url}/_sim${path}`, {
    method,
    headers: { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: r.status, body: (await r.json()) as Record<string, unknown> };
}

const api = (path: string, base = s!.url) => getJson(`${base}/api2/json${path}`, tokenHeader('hv'));
type Guest = { vmid: number; cpu: number; mem: number; status: string; name: string; uptime: number };
const find = async (node: string, vmid: number) =>
  ((await api(`/nodes/${node}/qemu`)).body.data as Guest[]).find((g) => g.vmid === vmid);

describe('/_sim/ control API', () => {
  it('pins a guest value, then null returns it to the computed one', async () => {
    s = await sim('hv');
    const before = (await find('pve1', 100))!;
    expect((await ctl('POST', '/guests/100', { cpu: 0.97, mem: 123456, name: 'db-1' })).status).toBe(200);
    const pinned = (await find('pve1', 100))!;
    expect(pinned).toMatchObject({ cpu: 0.97, mem: 123456, name: 'db-1' });
    await ctl('POST', '/guests/100', { cpu: null, mem: null, name: null });
    expect(await find('pve1', 100)).toEqual(before);
    expect((await ctl('POST', '/guests/100', { cpu: 3 })).status).toBe(400);
    expect((await ctl('POST', '/guests/100', { color: 'red' })).status).toBe(400);
  });

  it('pins node values', async () => {
    s = await sim('hv');
    await ctl('POST', '/nodes/pve2', { cpu: 0.5, mem: 1024 });
    const st = await api('/nodes/pve2/status');
    expect(st.body.data).toMatchObject({ cpu: 0.5, memory: { used: 1024 } });
  });

  it('stops and starts a guest; uptime restarts from zero', async () => {
    const clock = fakeClock();
    s = await sim('hv', { clock: clock.now });
    await ctl('POST', '/guests/100/stop');
    expect(await find('pve1', 100)).toMatchObject({ status: 'stopped', cpu: 0, uptime: 0 });
    await ctl('POST', '/guests/100/start');
    clock.advance(42_000);
    expect(await find('pve1', 100)).toMatchObject({ status: 'running', uptime: 42 });
  });

  it('adds and removes guests', async () => {
    s = await sim('hv');
    const added = await ctl('POST', '/guests', { node: 'pve2', type: 'qemu', vmid: 900, name: 'new-vm', agent: true });
    expect(added.status).toBe(200);
    expect(await find('pve2', 900)).toMatchObject({ name: 'new-vm', status: expect.any(String) });
    expect((await ctl('POST', '/guests', { node: 'pve2', vmid: 900 })).status).toBe(409);
    expect((await ctl('DELETE', '/guests/900')).status).toBe(200);
    expect(await find('pve2', 900)).toBeUndefined();
    expect((await ctl('DELETE', '/guests/900')).status).toBe(404);
  });

  it('takes a cluster node offline and back', async () => {
    s = await sim('hv', { cluster: 'demo', nodes: 3 });
    const pve3 = s.urls.find((u) => u.node === 'pve3')!.url;
    await ctl('POST', '/nodes/pve3/offline');
    const cs = (await api('/cluster/status')).body.data as Array<Record<string, unknown>>;
    expect(cs.find((e) => e.name === 'pve3')).toMatchObject({ online: 0 });
    expect(cs.find((e) => e.type === 'cluster')).toMatchObject({ quorate: 1 });
    expect(((await api('/nodes')).body.data as Array<Record<string, unknown>>).find((n) => n.node === 'pve3')).toEqual({
      node: 'pve3',
      id: 'node/pve3',
      type: 'node',
      status: 'offline',
    });
    const proxied = await api('/nodes/pve3/status');
    expect(proxied.status).toBe(595);
    await expect(fetch(`${pve3}/api2/json/version`, { headers: tokenHeader('hv') })).rejects.toThrow();
    // The control API still answers on the dead member, so a test can bring it back.
    expect((await fetch(`${pve3}/_sim/nodes/pve3/online`, { method: 'POST' })).status).toBe(200);
    expect((await api('/version', pve3)).status).toBe(200);
  });

  it('advances the clock and reports a summary', async () => {
    s = await sim('hv');
    const before = (await ctl('GET', '/state')).body.now as number;
    await ctl('POST', '/clock', { advanceMs: 60_000 });
    const after = await ctl('GET', '/state');
    expect(after.body.now).toBe(before + 60);
    expect(after.body).toMatchObject({ kind: 'hv', nodes: [{ name: 'pve1', online: true }, { name: 'pve2' }] });
    expect((await ctl('GET', '/nope')).status).toBe(404);
  });

  it('works in process through the control object too', async () => {
    s = await sim('hv');
    s.control.setGuest(101, { name: 'renamed' });
    s.control.stopGuest(101);
    const ct = ((await api('/nodes/pve1/lxc')).body.data as Guest[]).find((g) => g.vmid === 101);
    expect(ct).toMatchObject({ name: 'renamed', status: 'stopped' });
  });
});
