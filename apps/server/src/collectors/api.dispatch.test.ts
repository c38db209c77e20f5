import { getEventListeners } from 'node:events';
import type { ServerResponse } from 'node:http';
import { FakeClock } from '@svc/platform';
import { Agent } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeTimers, settle, systemTimers } from '../platform/jobs/index.js';
import { type DispatchLimits, dispatchText, type StopReason } from './api.dispatch.js';
import { startTestServer } from './api.test-server.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

class Stopped extends Error {
  constructor(readonly why: StopReason) {
    super(why);
  }
}

const limits = (over: Partial<DispatchLimits> = {}): DispatchLimits => ({
  timers: systemTimers,
  timeoutMs: 30_000,
  signal: undefined,
  maxBytes: 1024,
  stopError: (why) => new Stopped(why),
  path: '/x',
  ...over,
});

/** A loopback server that answers `/slow` never and everything else with `body`, over a one-socket pool. */
async function setup(body: (res: ServerResponse) => void) {
  const s = await startTestServer((req, res) => {
    if (req.url !== '/slow') body(res);
  });
  const agent = new Agent({ connections: 1 });
  cleanups.push(s.close, () => agent.close());
  const send = (path: string, l: DispatchLimits) =>
    dispatchText(agent, { origin: s.url, path, method: 'GET', headers: {} }, l);
  return { s, send };
}

async function reason(p: Promise<unknown>): Promise<StopReason | string> {
  try {
    await p;
    return 'resolved';
  } catch (err) {
    return err instanceof Stopped ? err.why : String(err);
  }
}

describe('dispatchText', () => {
  it('reads the body once as text, dropping a BOM, with the status and headers', async () => {
    const { send } = await setup((res) => {
      res.writeHead(201, { 'x-a': 'b' });
      res.write(Buffer.from([0xef, 0xbb, 0xbf]));
      res.end('{"data":"é"}');
    });
    const r = await send('/', limits());
    expect([r.status, r.headers['x-a'], r.text]).toEqual([201, 'b', '{"data":"é"}']);
  });

  it('stops a body that grows past the limit even without a content-length', async () => {
    const { send } = await setup((res) => {
      res.writeHead(200);
      for (let i = 0; i < 8; i++) res.write('x'.repeat(512));
      res.end();
    });
    expect(await reason(send('/', limits()))).toBe('too-large');
    expect((await send('/', limits({ maxBytes: 8192 }))).text).toHaveLength(4096);
  });

  it('times out and aborts while still waiting for a pooled connection', async () => {
    const { s, send } = await setup((res) => res.end('{}'));
    const timers = new FakeTimers(new FakeClock(0));
    const ctrl = new AbortController();
    const busy = reason(send('/slow', limits({ timers, signal: ctrl.signal })));
    while (s.seen.length === 0) await settle(1);
    const queuedTimeout = reason(send('/', limits({ timers, timeoutMs: 1_000 })));
    const queuedAbort = reason(send('/', limits({ signal: ctrl.signal })));
    await timers.advance(1_000);
    expect(await queuedTimeout).toBe('timeout');
    ctrl.abort();
    expect([await busy, await queuedAbort]).toEqual(['aborted', 'aborted']);
    expect(s.seen).toHaveLength(1);
    expect(timers.size).toBe(0);
    expect(await reason(send('/', limits({ signal: ctrl.signal })))).toBe('aborted');
  });

  it('adds one abort listener per caller signal however many requests share it', async () => {
    const { send } = await setup((res) => res.end('{}'));
    const ctrl = new AbortController();
    const all = Promise.all(Array.from({ length: 40 }, () => send('/', limits({ signal: ctrl.signal }))));
    expect(getEventListeners(ctrl.signal, 'abort')).toHaveLength(1);
    expect((await all).every((r) => r.text === '{}')).toBe(true);
    await send('/', limits({ signal: ctrl.signal }));
    expect(getEventListeners(ctrl.signal, 'abort')).toHaveLength(1);
  });
});
