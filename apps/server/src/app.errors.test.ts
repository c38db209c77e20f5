import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './testing/app.js';

describe('error model through buildApp', () => {
  let t: TestApp;
  let clockBroken = false;
  beforeAll(async () => {
    const base = Date.UTC(2026, 10, 22);
    t = await createTestApp({
      clock: {
        now: () => {
          if (clockBroken) throw new Error('clock exploded: /internal/path.ts:12');
          return base;
        },
      },
    });
  });
  afterAll(() => t.close());

  it('unknown /api path: 404 not_found in the JSON error shape', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/does-not-exist' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'not_found', message: expect.stringContaining('/api/does-not-exist') });
    expect(res.headers['x-request-id']).toBeTruthy();
  });

  it('wrong method on a known path: 405 with Allow', async () => {
    const res = await t.app.inject({ method: 'DELETE', url: '/api/version' });
    expect(res.statusCode).toBe(405);
    expect(res.json().error).toBe('method_not_allowed');
    expect(res.headers.allow).toBe('GET, HEAD');
  });

  it('an internal failure: 500 internal, no stack or internals, request id in header and message', async () => {
    clockBroken = true;
    try {
      const res = await t.app.inject({ method: 'GET', url: '/api/health', headers: { 'x-request-id': 'probe-1' } });
      expect(res.statusCode).toBe(500);
      expect(res.json().error).toBe('internal');
      expect(res.body).not.toContain('clock exploded');
      expect(res.body).not.toContain('internal/path.ts');
      expect(res.headers['x-request-id']).toBe('probe-1');
      expect(t.logLines().some((l) => l.includes('clock exploded') && l.includes('probe-1'))).toBe(true);
    } finally {
      clockBroken = false;
    }
  });

  it('an unsafe X-Request-Id is replaced, not echoed', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/version', headers: { 'x-request-id': '<script>' } });
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});
