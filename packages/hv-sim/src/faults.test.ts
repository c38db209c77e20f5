import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Simulator } from './index.js';
import { getJson, sim, ticketHeaders, tokenHeader } from './test-support.js';

let s: Simulator | undefined;
afterEach(async () => {
  await s?.close();
  s = undefined;
});

const api = (path: string, h = tokenHeader('hv')) => getJson(`${s!.url}/api2/json${path}`, h);

async function fault(spec: Record<string, unknown>) {
  const r = await fetch(`${s!.url}/_sim/faults`, { method: 'POST', body: JSON.stringify(spec) });
  expect(r.status).toBe(200);
  return ((await r.json()) as { fault: { id: number } }).fault;
}

describe('fault injection', () => {
  it('latency: delays matching requests by the given ms (injected delay, no real wait)', async () => {
    const waits: number[] = [];
    s = await sim('hv', { delay: async (ms) => void waits.push(ms) });
    await fault({ kind: 'latency', ms: 1500, path: '/nodes/*/qemu' });
    await api('/version');
    expect(waits).toEqual([]);
    await api('/nodes/pve1/qemu');
    await api('/nodes/pve2/qemu');
    expect(waits).toEqual([1500, 1500]);
  });

  it('error: 5xx for N requests, then normal again', async () => {
    s = await sim('hv');
    await fault({ kind: 'error', status: 503, count: 2 });
    const first = await api('/version');
    expect(first.status).toBe(503);
    expect(first.body).toEqual({ data: null, message: 'simulated server error\n' });
    expect((await api('/version')).status).toBe(503);
    expect((await api('/version')).status).toBe(200);
  });

  it('rate-limit: 429 with Retry-After, one-shot', async () => {
    s = await sim('bak');
    await fault({ kind: 'rate-limit', retryAfter: 7, count: 1 });
    const r = await api('/version', tokenHeader('bak'));
    expect(r.status).toBe(429);
    expect(r.headers.get('retry-after')).toBe('7');
    expect((await api('/version', tokenHeader('bak'))).status).toBe(200);
  });

  it('timeout: accepts the request and never answers (until the simulator closes)', async () => {
    s = await sim('hv');
    await fault({ kind: 'timeout', path: '/nodes' });
    const pending = fetch(`${s.url}/api2/json/nodes`, { headers: tokenHeader('hv') });
    const settled = vi.fn();
    pending.then(settled, settled);
    await vi.waitFor(() => expect(s!.control.faults()[0]!.hits).toBe(1));
    // Other paths still answer while the first request hangs.
    expect((await api('/version')).status).toBe(200);
    expect(settled).not.toHaveBeenCalled();
    await s.close();
    await expect(pending).rejects.toThrow();
    s = undefined;
  });

  it('malformed JSON: 200 with a body that does not parse', async () => {
    s = await sim('hv');
    await fault({ kind: 'malformed', path: '/cluster/resources', count: 1 });
    const r = await api('/cluster/resources');
    expect(r.status).toBe(200);
    expect(() => JSON.parse(r.text)).toThrow();
    expect(r.text.startsWith('{"data":[')).toBe(true);
  });

  it('truncated body: full Content-Length announced, half sent, connection cut', async () => {
    s = await sim('hv');
    await fault({ kind: 'truncate', path: '/cluster/resources', count: 1 });
    const r = await fetch(`${s.url}/api2/json/cluster/resources`, { headers: tokenHeader('hv') });
    expect(r.status).toBe(200);
    await expect(r.text()).rejects.toThrow();
    expect((await api('/cluster/resources')).status).toBe(200);
  });

  it('auth expiry: invalidates existing tickets; a new login works', async () => {
    s = await sim('mail');
    const h = await ticketHeaders(s, 'mail');
    expect((await api('/statistics/mail', h)).status).toBe(200);
    await fault({ kind: 'auth-expiry', count: 1 });
    expect((await api('/statistics/mail', h)).status).toBe(401);
    expect((await api('/statistics/mail', await ticketHeaders(s, 'mail'))).status).toBe(200);
  });

  it('per-member faults, listing and clearing', async () => {
    s = await sim('hv', { cluster: 'demo', nodes: 2 });
    const second = s.urls[1]!.url;
    const f = await fault({ kind: 'error', member: 'pve2' });
    expect((await api('/version')).status).toBe(200);
    expect((await getJson(`${second}/api2/json/version`, tokenHeader('hv'))).status).toBe(500);
    const listed = (await (await fetch(`${s.url}/_sim/faults`)).json()) as {
      faults: Array<{ id: number; hits: number }>;
    };
    expect(listed.faults).toEqual([expect.objectContaining({ id: f.id, hits: 1 })]);
    expect((await fetch(`${s.url}/_sim/faults/${f.id}`, { method: 'DELETE' })).status).toBe(200);
    expect((await getJson(`${second}/api2/json/version`, tokenHeader('hv'))).status).toBe(200);
    await fault({ kind: 'error' });
    await fetch(`${s.url}/_sim/faults`, { method: 'DELETE' });
    expect((await api('/version')).status).toBe(200);
    const bad = await fetch(`${s.url}/_sim/faults`, { method: 'POST', body: JSON.stringify({ kind: 'gremlins' }) });
    expect(bad.status).toBe(400);
  });
});
