import { FakeClock } from '@svc/platform';
import { afterEach, describe, expect, it } from 'vitest';
import { systemTimers } from '../platform/jobs/index.js';
import type { ApiError } from './api.errors.js';
import { sendJson, startTestServer } from './api.test-server.js';
import { createHvClient } from './hv/hv.client.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

const token = { type: 'token', tokenId: 'svc@pve!mon', secret: 'x' } as const;

async function member(name: string, status = 200) {
  const s = await startTestServer((_q, r) => sendJson(r, status, status === 200 ? { data: name } : { data: null }));
  cleanups.push(s.close);
  return s;
}

describe('cluster failover', () => {
  it('moves to a healthy member on connectivity errors and re-probes the failed one once due', async () => {
    let aDown = false;
    const a = await startTestServer((q, r) => {
      if (aDown) return void r.socket?.destroy();
      sendJson(r, 200, { data: q.url.endsWith('/version') ? 'a' : 'a-data' });
    });
    cleanups.push(a.close);
    const b = await member('b');
    const clock = new FakeClock(0);
    const c = createHvClient(
      { host: a.url, credentials: token, endpoints: [{ name: 'b', host: b.url }] },
      { clock, timers: systemTimers },
    );
    cleanups.push(c.close);
    expect(await c.api.get('/nodes')).toBe('a-data');
    aDown = true;
    expect(await c.api.get('/nodes')).toBe('b');
    expect(c.sender.health().map((h) => [h.healthy, h.retryAt])).toEqual([
      [false, 10_000],
      [true, undefined],
    ]);
    aDown = false;
    const before = a.seen.length;
    expect(await c.api.get('/nodes')).toBe('b');
    await c.sender.reprobe();
    expect(a.seen.length).toBe(before);
    clock.advance(10_000);
    await c.sender.reprobe();
    expect(c.sender.health()[0]?.healthy).toBe(true);
    expect(await c.api.get('/nodes')).toBe('a-data');
  });

  it('fails with a connectivity error when every member is down', async () => {
    const c = createHvClient(
      { host: 'http://127.0.0.1:1', credentials: token, endpoints: [{ name: 'x', host: 'http://127.0.0.1:2' }] },
      { clock: new FakeClock(0), timers: systemTimers },
    );
    cleanups.push(c.close);
    await expect(c.api.get('/nodes')).rejects.toMatchObject({ category: 'connectivity' });
    expect(c.sender.health().every((h) => !h.healthy)).toBe(true);
  });

  it('does not fail over on auth errors', async () => {
    const a = await member('a', 401);
    const b = await member('b');
    const c = createHvClient(
      { host: a.url, credentials: token, endpoints: [{ name: 'b', host: b.url }] },
      { clock: new FakeClock(0), timers: systemTimers },
    );
    cleanups.push(c.close);
    await expect(c.api.get('/version')).rejects.toMatchObject({ category: 'auth' } satisfies Partial<ApiError>);
    expect(b.seen).toHaveLength(0);
    expect(c.sender.health()[0]?.healthy).toBe(true);
  });

  it('puts an overloaded member (429/503) on a cooldown and uses the next, but never fails over on 500', async () => {
    const a = await startTestServer((q, r) =>
      q.url.endsWith('/busy')
        ? sendJson(r, 429, 'slow down', { 'retry-after': '60' })
        : sendJson(r, 500, { data: null, message: 'QEMU guest agent is not running' }),
    );
    cleanups.push(a.close);
    const b = await member('b');
    const clock = new FakeClock(0);
    const c = createHvClient(
      { host: a.url, credentials: token, endpoints: [{ name: 'b', host: b.url }] },
      { clock, timers: systemTimers },
    );
    cleanups.push(c.close);
    await expect(c.api.get('/agent')).rejects.toMatchObject({ category: 'server', status: 500 });
    expect(b.seen).toHaveLength(0);
    expect(await c.api.get('/busy')).toBe('b');
    expect(c.sender.health()[0]).toMatchObject({ healthy: false, retryAt: 60_000 });
  });
});
