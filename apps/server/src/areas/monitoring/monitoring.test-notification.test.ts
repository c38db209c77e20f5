import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createToken, login, relaxedLimits, setUpAdmin } from '../../testing/access.js';
import { createTestApp, type TestApp } from '../../testing/app.js';

describe('POST /api/test-notification', () => {
  let t: TestApp;
  let token: string;
  let base: string;
  beforeAll(async () => {
    t = await createTestApp({ env: relaxedLimits });
    await setUpAdmin(t);
    token = await createToken(t, await login(t), ['*']);
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => t.close());

  it('reaches a connected /ws client as a test event', async () => {
    const ws = new WebSocket(`${base.replace('http', 'ws')}/ws`, { headers: { 'x-api-token': token } });
    const messages: { type: string; data: { message?: string } }[] = [];
    const gotTest = new Promise<void>((resolve, reject) => {
      ws.on('message', (raw) => {
        const m = JSON.parse(String(raw));
        messages.push(m);
        if (m.type === 'initialState') {
          void t.app.inject({
            method: 'POST',
            url: '/api/test-notification',
            headers: { 'x-api-token': token },
            payload: { message: 'hello operators' },
          });
        }
        if (m.type === 'test') resolve();
      });
      ws.on('error', reject);
    });
    await gotTest;
    ws.close();
    expect(messages.map((m) => m.type).slice(0, 2)).toEqual(['welcome', 'initialState']);
    expect(messages.at(-1)?.data.message).toBe('hello operators');
  });

  it('refuses callers without credentials', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/test-notification', payload: {} });
    expect(res.statusCode).toBe(401);
  });
});
