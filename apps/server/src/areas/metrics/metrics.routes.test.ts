import type { Feature, Scope } from '@svc/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '../../platform/http/principal.js';
import { createTestApp, type TestApp } from '../../testing/app.js';
import { createMetricsStore } from './metrics.store.js';

const HISTORY = '/api/metrics-store/history';
const STATS = '/api/metrics-store/stats';

function tokenWith(scopes: Scope[]): () => Promise<Principal> {
  return async () => ({ kind: 'token', username: 't', isAdmin: false, scopes, orgId: 'default' });
}

describe('metrics store endpoints', () => {
  let t: TestApp;
  let licensed: TestApp;
  let wrongScope: TestApp;
  let anonymous: TestApp;
  beforeAll(async () => {
    const features = (on: Feature[]) => (f: Feature) => on.includes(f);
    t = await createTestApp({
      overrides: { authenticate: tokenWith(['monitoring:read']), hasFeature: features([]) },
    });
    licensed = await createTestApp({
      overrides: { authenticate: tokenWith(['monitoring:read']), hasFeature: features(['long_term_metrics']) },
    });
    wrongScope = await createTestApp({ overrides: { authenticate: tokenWith(['settings:read']) } });
    anonymous = await createTestApp();
    const now = t.clock.now();
    const store = createMetricsStore(t.db);
    for (let i = 0; i < 360; i++) {
      const timestamp = now - 3_600_000 + i * 10_000;
      await store.writeBatch([
        {
          orgId: 'default',
          resourceType: 'container',
          resourceId: 'pve1:101',
          metric: 'cpu',
          value: i % 50,
          timestamp,
        },
        { orgId: 'default', resourceType: 'node', resourceId: 'pve1', metric: 'temperature', value: 40, timestamp },
      ]);
    }
  });
  afterAll(async () => {
    for (const a of [t, licensed, wrongScope, anonymous]) await a.close();
  });

  const get = (app: TestApp, url: string) => app.app.inject({ method: 'GET', url });

  it('history of a guest resolves to the LXC container that has data, within maxPoints', async () => {
    const res = await get(t, `${HISTORY}?resourceType=guest&resourceId=pve1:101&metric=cpu&range=1h&maxPoints=100`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ resourceType: 'container', resourceId: 'pve1:101', range: '1h', tier: 'raw' });
    expect(body.series).toHaveLength(1);
    const points = body.series[0].points;
    expect(points.length).toBeGreaterThan(50);
    expect(points.length).toBeLessThanOrEqual(100);
    expect(Object.keys(points[0]).sort()).toEqual(['avg', 'max', 'min', 't']);
    expect(body.end).toBe(t.clock.now());
  });

  it('defaults to 24h and every metric of the type; unknown resources give empty series', async () => {
    const res = await get(t, `${HISTORY}?resourceType=node&resourceId=pve1`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.range).toBe('24h');
    expect(body.tier).toBe('minute');
    expect(body.series.map((s: { metric: string }) => s.metric)).toContain('temperature');
    expect(body.series.find((s: { metric: string }) => s.metric === 'temperature').points.length).toBeGreaterThan(0);
    const none = (await get(t, `${HISTORY}?resourceType=ctr&resourceId=nope&metric=cpu`)).json();
    expect(none).toMatchObject({ resourceType: 'ctrContainer', series: [{ metric: 'cpu', points: [] }] });
  });

  it.each([
    ['resourceType=pod&resourceId=x', 'resourceType'],
    ['resourceId=x', 'resourceType'],
    ['resourceType=vm', 'resourceId'],
    ['resourceType=vm&resourceId=x&metric=gpu', 'metric'],
    ['resourceType=vm&resourceId=x&range=forever', 'range'],
    ['resourceType=vm&resourceId=x&range=0m', 'range'],
    ['resourceType=vm&resourceId=x&range=400d', 'range'],
    ['resourceType=vm&resourceId=x&maxPoints=0', 'maxPoints'],
    ['resourceType=vm&resourceId=x&maxPoints=5001', 'maxPoints'],
    ['resourceType=vm&resourceId=x&maxPoints=abc', 'maxPoints'],
    ['resourceType=storage&resourceId=x&metric=cpu', 'metric'],
  ])('400 for %s, naming %s', async (qs, field) => {
    const res = await get(t, `${HISTORY}?${qs}`);
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.error).toBe('validation_failed');
    expect(body.message).toContain(field);
  });

  it('the 400 for a bad type or range says what is accepted', async () => {
    const bad = (await get(t, `${HISTORY}?resourceType=pod&resourceId=x`)).json();
    expect(bad.message).toContain('ctrContainer');
    const range = (await get(t, `${HISTORY}?resourceType=vm&resourceId=x&range=forever`)).json();
    expect(range.message).toContain('36h');
  });

  it('402 for a range beyond 7 days without long_term_metrics; 200 with it', async () => {
    for (const range of ['30d', '8d', '90d', '169h']) {
      const res = await get(t, `${HISTORY}?resourceType=vm&resourceId=x&range=${range}`);
      expect(res.statusCode).toBe(402);
      expect(res.json()).toMatchObject({ error: 'license_required', details: { feature: 'long_term_metrics' } });
    }
    expect((await get(t, `${HISTORY}?resourceType=vm&resourceId=x&range=7d`)).statusCode).toBe(200);
    const ok = await get(licensed, `${HISTORY}?resourceType=vm&resourceId=x&range=90d`);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().tier).toBe('hour');
  });

  it('stats report rows per tier', async () => {
    const res = await get(t, STATS);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.tiers[0]).toMatchObject({ tier: 'raw', rows: 720, retentionSeconds: 7200 });
    expect(body.series).toBe(2);
    expect(body.diskBytes).toBeGreaterThan(0);
    const lt = (await get(licensed, STATS)).json();
    expect(lt.tiers[2]).toMatchObject({ tier: 'hour', retentionSeconds: 90 * 86_400 });
  });

  it('401 without credentials and 403 without monitoring:read', async () => {
    for (const url of [STATS, `${HISTORY}?resourceType=vm&resourceId=x`]) {
      expect((await get(anonymous, url)).statusCode).toBe(401);
      const res = await get(wrongScope, url);
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toBe('forbidden');
    }
  });
});
