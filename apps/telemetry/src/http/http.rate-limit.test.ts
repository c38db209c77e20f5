import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TestTelemetry } from '../testing/app.js';
import { dialects, report, telemetryOn } from '../testing/dialects.js';

describe.each(dialects)('rate limit per client address on %s (fake clock)', (dialect) => {
  let t: TestTelemetry;
  beforeEach(async () => {
    t = await telemetryOn(dialect, { env: { SVC_TELEMETRY_RATE_LIMIT: '3' } });
    t.clock.set(Date.UTC(2026, 10, 22, 12, 0, 10));
  });
  afterEach(() => t.close());
  const upload = (n: number, ip = '203.0.113.7') =>
    t.app.inject({
      method: 'POST',
      url: '/upload',
      payload: JSON.stringify(report(n)),
      headers: { 'content-type': 'application/json' },
      remoteAddress: ip,
    });

  it('allows the limit per minute with standard headers, then 429 with Retry-After; the next minute is fresh', async () => {
    const ok = [await upload(1), await upload(2), await upload(3)];
    expect(ok.map((r) => r.statusCode)).toEqual([201, 201, 201]);
    expect(ok.map((r) => r.headers['ratelimit-remaining'])).toEqual(['2', '1', '0']);
    expect(ok[0]!.headers['ratelimit-limit']).toBe('3');
    expect(ok[0]!.headers['ratelimit-reset']).toBe('50');
    const refused = await upload(4);
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBe('50');
    expect(refused.json()).toMatchObject({ error: 'rate_limited' });
    expect((await upload(5, '198.51.100.1')).statusCode).toBe(201);
    t.clock.advance(50_000);
    expect((await upload(6)).statusCode).toBe(201);
  });

  it('counts invalid requests too, and leaves the read-only statistics unlimited', async () => {
    for (let i = 0; i < 3; i++) {
      const r = await t.app.inject({
        method: 'POST',
        url: '/upload',
        payload: '{',
        headers: { 'content-type': 'application/json' },
        remoteAddress: '203.0.113.9',
      });
      expect(r.statusCode).toBe(400);
    }
    expect((await upload(7, '203.0.113.9')).statusCode).toBe(429);
    for (let i = 0; i < 5; i++) {
      const r = await t.app.inject({ method: 'GET', url: '/api/stats/summary', remoteAddress: '203.0.113.9' });
      expect(r.statusCode).toBe(200);
    }
  });

  it('never stores or logs the client address', async () => {
    await upload(8, '203.0.113.77');
    const rows = await t.runner.all<Record<string, unknown>>('select * from installs');
    expect(JSON.stringify(rows)).not.toContain('203.0.113.77');
    expect(t.logLines().join('\n')).not.toContain('203.0.113.77');
  });
});
