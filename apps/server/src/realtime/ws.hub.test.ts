import type { AddressInfo } from 'node:net';
import { FakeClock } from '@svc/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeTimers, settle } from '../platform/jobs/index.js';
import { LiveState } from '../state/index.js';
import { createToken, login, relaxedLimits, type Session, setUpAdmin } from '../testing/access.js';
import { createTestApp, type TestApp } from '../testing/app.js';
import { hvPoll, range } from './realtime.fixtures.js';
import type { DeltaData, Envelope, WelcomeData } from './realtime.messages.js';
import { plainGet, refusedUpgrade, stalledClient, TestClient } from './realtime.test-client.js';

const MAX_BUFFERED = 256 * 1024;

describe('/ws', () => {
  const clock = new FakeClock(Date.UTC(2026, 10, 22, 12));
  const timers = new FakeTimers(clock);
  const state = new LiveState({ clock });
  let t: TestApp;
  let s: Session;
  let readToken: string;
  let port: number;
  let base: string;
  let url: string;
  const vmids = range(50);

  beforeAll(async () => {
    t = await createTestApp({
      clock,
      env: relaxedLimits,
      overrides: { state, realtime: { timers, maxBufferedBytes: MAX_BUFFERED } },
    });
    await setUpAdmin(t);
    s = await login(t);
    readToken = await createToken(t, s, ['monitoring:read'], 'reader');
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
    base = `http://127.0.0.1:${port}`;
    url = `ws://127.0.0.1:${port}/ws`;
    state.applyPoll('lab', hvPoll('lab', clock.now(), vmids));
    await timers.advance(100);
  });
  afterAll(() => t.close());

  describe('refuses the upgrade before switching protocols', () => {
    it('without credentials: 401 with the JSON error body', async () => {
      const r = await refusedUpgrade(url);
      expect(r).toMatchObject({ status: 401, body: { error: 'unauthorized' } });
    });

    it('with a made-up token: 401', async () => {
      expect((await refusedUpgrade(`${url}?token=nope`)).status).toBe(401);
      expect((await refusedUpgrade(url, { 'x-api-token': 'nope' })).status).toBe(401);
    });

    it('with a token lacking monitoring:read: 403', async () => {
      const other = await createToken(t, s, ['settings:read'], 'settings only');
      const r = await refusedUpgrade(url, { authorization: `Bearer ${other}` });
      expect(r).toMatchObject({ status: 403, body: { error: 'forbidden' } });
    });

    it('with the session cookie from another site: 403 (cross-site WebSocket hijacking)', async () => {
      const r = await refusedUpgrade(url, { cookie: s.cookie, origin: 'https://evil.example' });
      expect(r).toMatchObject({ status: 403, body: { error: 'forbidden' } });
      const same = await TestClient.open(url, { cookie: s.cookie, origin: base });
      expect((await same.next()).type).toBe('welcome');
      same.close();
    });

    it('takes ?token= on the upgrade only; a plain GET with valid credentials gets 426', async () => {
      expect(await plainGet(base, `/ws?token=${readToken}`)).toBe(401);
      const res = await t.app.inject({ method: 'GET', url: '/ws', headers: { 'x-api-token': readToken } });
      expect(res.statusCode).toBe(426);
      expect(res.json().error).toBe('upgrade_required');
    });
  });

  it.each([
    ['the session cookie', 'session', () => ({ url, headers: { cookie: s.cookie } })],
    ['X-API-Token', 'api_token', () => ({ url, headers: { 'x-api-token': readToken } })],
    ['Authorization: Bearer', 'api_token', () => ({ url, headers: { authorization: `Bearer ${readToken}` } })],
    ['?token=', 'api_token', () => ({ url: `${url}?token=${readToken}`, headers: {} })],
  ])('accepts %s: welcome, then one full initialState', async (_name, method, how) => {
    const { url: u, headers } = how();
    const c = await TestClient.open(u, headers);
    const welcome = (await c.next()) as Envelope<WelcomeData>;
    expect(welcome).toMatchObject({ type: 'welcome', data: { orgId: 'default', authMethod: method } });
    const init = await c.next();
    expect(init.type).toBe('initialState');
    expect(init.seq).toBe(state.snapshot().seq);
    expect((init.data as { vms: unknown[] }).vms).toHaveLength(50);
    c.close();
  });

  it('then sends only what changed: one changed guest, then one removed guest', async () => {
    const c = await TestClient.open(url, { 'x-api-token': readToken });
    await c.next();
    const init = await c.next();
    clock.advance(10_000);
    state.applyPoll(
      'lab',
      hvPoll('lab', clock.now(), vmids, (v) => (v === 120 ? 0.75 : 0.1)),
    );
    await timers.advance(100);
    const d = (await c.next()) as Envelope<DeltaData>;
    expect(d.type).toBe('rawData');
    expect(d.data.prevSeq).toBe(init.seq);
    expect(d.data.upserts).toEqual({ vms: [expect.objectContaining({ vmid: 120, cpu: 0.75 })] });
    expect(d.data.removed).toEqual({});
    expect(c.sizes[2]!).toBeLessThan(c.sizes[1]! / 20);

    clock.advance(10_000);
    state.applyPoll(
      'lab',
      hvPoll('lab', clock.now(), vmids.slice(0, -1), (v) => (v === 120 ? 0.75 : 0.1)),
    );
    await timers.advance(100);
    const r = (await c.next()) as Envelope<DeltaData>;
    expect(r.data).toMatchObject({ prevSeq: d.seq, upserts: {}, removed: { vms: ['lab:pve1:149'] } });
    state.applyPoll(
      'lab',
      hvPoll('lab', clock.now(), vmids, (v) => (v === 120 ? 0.75 : 0.1)),
    );
    await timers.advance(100);
    expect(((await c.next()).data as DeltaData).upserts.vms!.map((g) => g.vmid)).toEqual([149]);
    c.close();
  });

  it('answers ping with pong, requestData with a fresh initialState, and broadcasts to everyone', async () => {
    const c = await TestClient.open(url, { cookie: s.cookie });
    await c.next();
    await c.next();
    c.ws.send(JSON.stringify({ type: 'ping' }));
    expect((await c.next()).type).toBe('pong');
    c.ws.send(JSON.stringify({ type: 'requestData' }));
    expect((await c.next()).type).toBe('initialState');
    c.ws.send('not json');
    t.app.realtime.broadcast('test', { message: 'Test notification' });
    expect(await c.next()).toMatchObject({ type: 'test', data: { message: 'Test notification' } });
    c.close();
  });

  it('drops a client that misses a heartbeat and keeps one that answers', async () => {
    const live = await TestClient.open(url, { 'x-api-token': readToken });
    await live.next();
    await live.next();
    const silent = await stalledClient(port, { 'x-api-token': readToken });
    const before = t.app.realtime.stats().dropped;
    const pinged = new Promise((r) => live.ws.once('ping', r));
    await timers.advance(30_000);
    await pinged;
    // The protocol pong goes out before this message, so its answer proves the server saw the pong.
    live.ws.send(JSON.stringify({ type: 'ping' }));
    expect((await live.next()).type).toBe('pong');
    await timers.advance(30_000);
    expect(t.app.realtime.stats().dropped).toBe(before + 1);
    expect(live.ws.readyState).toBe(live.ws.OPEN);
    silent.destroy();
    live.close();
  });

  it('bounds the memory a stalled client can hold, keeps fast clients current, and resyncs it once drained', async () => {
    const big = range(2000, 1000);
    state.applyPoll('lab', hvPoll('lab', clock.now(), big));
    await timers.advance(100);
    const fast = await TestClient.open(url, { 'x-api-token': readToken });
    await fast.next();
    await fast.next();
    const slow = await stalledClient(port, { 'x-api-token': readToken });
    const snapshotBytes = t.app.realtime.feed.snapshotFrame().bytes.length;
    let maxBuffered = 0;
    let frameBytes = 0;
    for (let i = 1; i <= 30; i++) {
      clock.advance(1000);
      state.applyPoll(
        'lab',
        hvPoll('lab', clock.now(), big, () => i / 100),
      );
      await timers.advance(100);
      expect((await fast.next()).type).toBe('rawData');
      frameBytes = Math.max(frameBytes, fast.sizes.at(-1)!);
      maxBuffered = Math.max(maxBuffered, ...t.app.realtime.hub.buffered());
    }
    // 30 deltas of ~frameBytes each would be queued without the bound.
    expect(30 * frameBytes).toBeGreaterThan(10 * (MAX_BUFFERED + snapshotBytes + frameBytes));
    expect(maxBuffered).toBeLessThanOrEqual(MAX_BUFFERED + snapshotBytes + frameBytes);
    expect(t.app.realtime.stats().lagging).toBe(1);

    slow.on('data', () => undefined);
    slow.resume();
    for (let i = 0; i < 10_000 && Math.max(...t.app.realtime.hub.buffered()) > 0; i++) await settle(1);
    const resyncs = t.app.realtime.stats().resyncs;
    state.applyPoll(
      'lab',
      hvPoll('lab', clock.now(), big, () => 0.5),
    );
    await timers.advance(100);
    expect(t.app.realtime.stats()).toMatchObject({ lagging: 0, resyncs: resyncs + 1 });
    slow.destroy();
    fast.close();
    // CPU-heavy by design (2,000 guests, 30 full-size deltas): ~10 s alone, more beside other suites.
  }, 90_000);
});
