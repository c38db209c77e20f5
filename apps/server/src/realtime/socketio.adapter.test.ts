import type { AddressInfo } from 'node:net';
import { FakeClock } from '@svc/platform';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeTimers } from '../platform/jobs/index.js';
import { LiveState } from '../state/index.js';
import { createToken, login, relaxedLimits, setUpAdmin } from '../testing/access.js';
import { createTestApp, type TestApp } from '../testing/app.js';
import { hvPoll, range } from './realtime.fixtures.js';
import type { DeltaData } from './realtime.messages.js';

type Event = { name: string; args: unknown[] };

/** Collects every event of a socket.io client so the test awaits them in order. */
function recorder(socket: Socket) {
  const events: Event[] = [];
  let wake: (() => void) | undefined;
  socket.onAny((name: string, ...args: unknown[]) => {
    events.push({ name, args });
    wake?.();
  });
  return async (): Promise<Event> => {
    while (events.length === 0) await new Promise<void>((r) => (wake = r));
    return events.shift()!;
  };
}

describe('/socket.io/ (legacy clients)', () => {
  const clock = new FakeClock(Date.UTC(2026, 10, 22, 12));
  const timers = new FakeTimers(clock);
  const state = new LiveState({ clock });
  let t: TestApp;
  let base: string;
  let token: string;
  let other: string;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    t = await createTestApp({ clock, env: relaxedLimits, overrides: { state, realtime: { timers } } });
    await setUpAdmin(t);
    const s = await login(t);
    token = await createToken(t, s, ['monitoring:read'], 'reader');
    other = await createToken(t, s, ['settings:read'], 'settings only');
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    state.applyPoll('lab', hvPoll('lab', clock.now(), range(20)));
    await timers.advance(100);
  });
  afterAll(async () => {
    for (const s of sockets) s.close();
    await t.close();
  });

  function open(opts: Parameters<typeof connect>[1]): Socket {
    const s = connect(base, { path: '/socket.io/', reconnection: false, ...opts });
    sockets.push(s);
    return s;
  }

  it.each([
    ['polling then upgrade, token header', { extraHeaders: { 'x-api-token': '' } }],
    ['WebSocket only, ?token=', { transports: ['websocket'], query: { token: '' } }],
  ])('%s: welcome, initialState, then the same deltas as /ws', async (_name, how) => {
    const opts = structuredClone(how) as Record<string, Record<string, string>>;
    if (opts.extraHeaders) opts.extraHeaders['x-api-token'] = token;
    if (opts.query) opts.query.token = token;
    const socket = open(opts);
    const next = recorder(socket);
    const welcome = await next();
    expect(welcome.name).toBe('welcome');
    expect(welcome.args[0]).toMatchObject({ orgId: 'default', authMethod: 'api_token' });
    const init = await next();
    expect(init.name).toBe('initialState');
    expect((init.args[0] as { vms: unknown[] }).vms).toHaveLength(20);
    expect(init.args[1]).toMatchObject({ seq: state.snapshot().seq });
    const cpu = 0.3 + Math.random() / 10;
    state.applyPoll(
      'lab',
      hvPoll('lab', clock.now(), range(20), (v) => (v === 105 ? cpu : 0.1)),
    );
    await timers.advance(100);
    const d = await next();
    expect(d.name).toBe('rawData');
    expect((d.args[0] as DeltaData).upserts).toEqual({ vms: [expect.objectContaining({ vmid: 105, cpu })] });
    t.app.realtime.broadcast('test', { message: 'hi' });
    expect(await next()).toMatchObject({ name: 'test', args: [{ message: 'hi' }, { timestamp: clock.now() }] });
    socket.emit('requestData');
    expect((await next()).name).toBe('initialState');
    // Put the guest back so the next case starts from the same state.
    state.applyPoll('lab', hvPoll('lab', clock.now(), range(20)));
    await timers.advance(100);
    expect((await next()).name).toBe('rawData');
    socket.close();
  });

  it.each([
    ['no credentials', {}],
    ['a token lacking monitoring:read', { extraHeaders: { 'x-api-token': 'OTHER' } }],
    ['a made-up token over WebSocket', { transports: ['websocket'], query: { token: 'nope' } }],
  ])('refuses %s', async (_name, how) => {
    const opts = JSON.parse(JSON.stringify(how).replace('OTHER', other));
    const socket = open(opts);
    const err = await new Promise<Error>((resolve) => socket.once('connect_error', resolve));
    expect(err).toBeInstanceOf(Error);
    expect(socket.connected).toBe(false);
  });

  it('answers 401 and 403 with the JSON error body on the polling handshake', async () => {
    const url = '/socket.io/?EIO=4&transport=polling';
    const none = await t.app.inject({ method: 'GET', url });
    expect(none.statusCode).toBe(401);
    expect(none.json().error).toBe('unauthorized');
    const lacking = await t.app.inject({ method: 'GET', url, headers: { 'x-api-token': other } });
    expect(lacking.statusCode).toBe(403);
  });
});
