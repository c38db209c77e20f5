import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, login, relaxedLimits, type Session, setUpAdmin } from '../../testing/access.js';
import { createTestApp, type TestApp } from '../../testing/app.js';

const wrong = (username = 'admin', remoteAddress = '10.0.0.9') => ({
  method: 'POST' as const,
  url: '/api/login',
  remoteAddress,
  payload: { username, password: 'definitely wrong' },
});

describe('login lockout', () => {
  let t: TestApp;
  let s: Session;
  beforeAll(async () => {
    t = await createTestApp({ env: relaxedLimits });
    await setUpAdmin(t);
    s = await login(t);
  });
  afterAll(() => t.close());

  it('locks a username after 5 failures for 15 minutes, with Retry-After and when to retry', async () => {
    for (let i = 1; i <= 4; i++) {
      const res = await t.app.inject(wrong('admin', `10.0.1.${i}`));
      expect(res.statusCode).toBe(401);
    }
    const fifth = await t.app.inject(wrong('admin', '10.0.1.5'));
    expect(fifth.statusCode).toBe(429);
    expect(fifth.json().error).toBe('locked');
    expect(fifth.headers['retry-after']).toBe('900');
    const right = await t.app.inject({ method: 'POST', url: '/api/login', remoteAddress: '10.0.1.6', payload: ADMIN });
    expect(right.statusCode).toBe(429);
    expect(right.json().message).toMatch(/Try again after \d{4}-\d\d-\d\dT/);
    t.clock.advance(10 * 60_000);
    const later = await t.app.inject({ method: 'POST', url: '/api/login', remoteAddress: '10.0.1.6', payload: ADMIN });
    expect(Number(later.headers['retry-after'])).toBe(300);
    t.clock.advance(5 * 60_000);
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/login', remoteAddress: '10.0.1.6', payload: ADMIN })).statusCode,
    ).toBe(200);
  });

  it('locks a client address separately, across usernames, and an administrator can reset it', async () => {
    for (let i = 1; i <= 5; i++) await t.app.inject(wrong(`user${i}`, '10.0.2.1'));
    const res = await t.app.inject({ method: 'POST', url: '/api/login', remoteAddress: '10.0.2.1', payload: ADMIN });
    expect(res.statusCode).toBe(429);
    expect(res.json().message).toContain('this address');
    const elsewhere = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      remoteAddress: '10.0.2.2',
      payload: ADMIN,
    });
    expect(elsewhere.statusCode).toBe(200);

    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/security/reset-lockout',
      headers: s.write,
      payload: {},
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('identifier');
    const reset = await t.app.inject({
      method: 'POST',
      url: '/api/security/reset-lockout',
      headers: s.write,
      payload: { identifier: '10.0.2.1' },
    });
    expect(reset.statusCode).toBe(200);
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/login', remoteAddress: '10.0.2.1', payload: ADMIN })).statusCode,
    ).toBe(200);
  });
});

describe('rate limits', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('every response carries the limit headers; the auth class allows 10 per minute, then 429 with Retry-After', async () => {
    const health = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(health.headers['x-ratelimit-limit']).toBe('500');
    expect(health.headers['x-ratelimit-remaining']).toBe('499');
    for (let i = 0; i < 10; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/security/validate-bootstrap-token',
        payload: { token: 'x' },
        remoteAddress: '10.1.0.1',
      });
      expect(res.statusCode).toBe(401);
      expect(res.headers['x-ratelimit-remaining']).toBe(String(9 - i));
    }
    const limited = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: ADMIN,
      remoteAddress: '10.1.0.1',
    });
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error).toBe('rate_limited');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    const other = await t.app.inject({ method: 'POST', url: '/api/login', payload: ADMIN, remoteAddress: '10.1.0.2' });
    expect(other.statusCode).not.toBe(429);
    t.clock.advance(60_000);
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/security/validate-bootstrap-token',
      payload: { token: 'x' },
      remoteAddress: '10.1.0.1',
    });
    expect(again.statusCode).toBe(401);
  });

  it('recovery allows 3 per 10 minutes', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 4; i++) {
      codes.push(
        (
          await t.app.inject({
            method: 'POST',
            url: '/api/security/recovery',
            payload: { action: 'enable_auth' },
            remoteAddress: '10.1.0.3',
          })
        ).statusCode,
      );
    }
    expect(codes).toEqual([403, 403, 403, 429]);
  });
});
