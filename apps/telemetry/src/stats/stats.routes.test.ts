import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestTelemetry } from '../testing/app.js';
import { dialects, report, telemetryOn, uuid } from '../testing/dialects.js';

const DAY = 86_400_000;

/** Three days of installs with known outcomes, so every statistic has an exact expected value. */
async function seed(t: TestTelemetry) {
  const post = (url: string, body: unknown) =>
    t.app.inject({
      method: 'POST',
      url,
      payload: JSON.stringify(body),
      headers: { 'content-type': 'application/json' },
    });
  const plan: [number, Record<string, unknown>, string | null, string][] = [
    // day offset 0 = 2026-11-20
    [0, { nsapp: 'pihole' }, 'done', 'none'],
    [0, { nsapp: 'pihole' }, 'failed', 'apt failed'],
    [0, { nsapp: 'docker', type: 'vm', ct_type: 2, os_type: 'ubuntu', os_version: '24.04' }, 'success', ''],
    [1, { nsapp: 'pihole' }, 'failed', 'apt failed'],
    [1, { nsapp: 'docker', os_type: 'ubuntu', os_version: '24.04' }, 'failed', 'disk full'],
    [1, { nsapp: 'jellyfin' }, null, ''],
    [2, { nsapp: 'jellyfin' }, 'aborted', 'INTERRUPTED'],
    [2, { nsapp: 'pihole' }, 'done', 'none'],
  ];
  t.clock.set(Date.UTC(2026, 10, 20, 10));
  let day = 0;
  for (const [i, [offset, fields, status, error]] of plan.entries()) {
    if (offset !== day) {
      t.clock.advance((offset - day) * DAY);
      day = offset;
    }
    expect((await post('/upload', report(i + 1, fields))).statusCode).toBe(201);
    if (status)
      expect((await post('/upload/updatestatus', { random_id: uuid(i + 1), status, error })).statusCode).toBe(200);
  }
  await post('/upload/updatestatus', { random_id: uuid(999), status: 'failed', error: 'lost report' });
}

describe.each(dialects)('statistics on %s', (dialect) => {
  let t: TestTelemetry;
  beforeAll(async () => {
    t = await telemetryOn(dialect, { env: { SVC_TELEMETRY_RATE_LIMIT: '0' } });
    await seed(t);
  });
  afterAll(() => t.close());
  const get = async (url: string) => {
    const res = await t.app.inject({ method: 'GET', url });
    return { status: res.statusCode, body: res.json(), headers: res.headers };
  };

  it('summary: totals, by status, rates over finished installs, orphans; CORS open', async () => {
    const r = await get('/api/stats/summary');
    expect(r.status).toBe(200);
    expect(r.headers['access-control-allow-origin']).toBe('*');
    expect(r.body).toEqual({
      from: null,
      to: null,
      total: 8,
      success: 3,
      failed: 3,
      aborted: 1,
      inProgress: 1,
      unknown: 0,
      failureRate: 0.4286,
      successRate: 0.4286,
      byStatus: { done: 2, success: 1, failed: 3, aborted: 1, installing: 1 },
      orphanUpdates: 1,
    });
  });

  it('summary over a date range', async () => {
    const r = await get('/api/stats/summary?from=2026-11-21&to=2026-11-21');
    expect(r.body).toMatchObject({ total: 3, failed: 2, inProgress: 1, success: 0, failureRate: 1, successRate: 0 });
  });

  it('per application, most installed first, with failure rate', async () => {
    const r = await get('/api/stats/apps');
    expect(
      r.body.map((a: { nsapp: string; total: number; failed: number; failureRate: number }) => [
        a.nsapp,
        a.total,
        a.failed,
        a.failureRate,
      ]),
    ).toEqual([
      ['pihole', 4, 2, 0.5],
      ['docker', 2, 1, 0.5],
      ['jellyfin', 2, 0, 0],
    ]);
    expect((await get('/api/stats/apps?limit=1')).body).toHaveLength(1);
  });

  it('per OS and version, per type', async () => {
    const os = (await get('/api/stats/os')).body;
    expect(
      os.map((o: { os_type: string; os_version: string; total: number }) => [o.os_type, o.os_version, o.total]),
    ).toEqual([
      ['debian', '12', 6],
      ['ubuntu', '24.04', 2],
    ]);
    const types = (await get('/api/stats/types')).body;
    expect(types.map((x: { type: string; total: number }) => [x.type, x.total])).toEqual([
      ['lxc', 7],
      ['vm', 1],
    ]);
  });

  it('per day, with empty days of the range filled with zeros', async () => {
    const r = await get('/api/stats/days?from=2026-11-19&to=2026-11-23');
    expect(
      r.body.map((d: { day: string; total: number; success: number; failed: number }) => [
        d.day,
        d.total,
        d.success,
        d.failed,
      ]),
    ).toEqual([
      ['2026-11-19', 0, 0, 0],
      ['2026-11-20', 3, 2, 1],
      ['2026-11-21', 3, 0, 2],
      ['2026-11-22', 2, 1, 0],
      ['2026-11-23', 0, 0, 0],
    ]);
    expect((await get('/api/stats/days')).body).toHaveLength(3);
  });

  it('ranges that mix edge days and whole months add up like the days they cover', async () => {
    const sum = async (from: string, to: string) => (await get(`/api/stats/summary?from=${from}&to=${to}`)).body.total;
    expect(await sum('2026-10-15', '2026-12-31')).toBe(8);
    expect(await sum('2026-11-01', '2026-11-30')).toBe(8);
    expect(await sum('2026-11-21', '2027-01-31')).toBe(5);
    expect(await sum('2026-01-01', '2026-11-20')).toBe(3);
    expect(
      (await get('/api/stats/apps?from=2026-11-21')).body.map((a: { nsapp: string; total: number }) => [
        a.nsapp,
        a.total,
      ]),
    ).toEqual([
      ['jellyfin', 2],
      ['pihole', 2],
      ['docker', 1],
    ]);
    expect((await get('/api/stats/errors?from=2026-11-01&to=2026-11-20')).body).toEqual([
      { error: 'apt failed', count: 1 },
    ]);
    expect((await get('/api/records?nsapp=pihole&from=2026-11-21&to=2026-12-31')).body.total).toBe(2);
  });

  it('top error texts of failed and aborted installs, optionally per app', async () => {
    expect((await get('/api/stats/errors')).body).toEqual([
      { error: 'apt failed', count: 2 },
      { error: 'INTERRUPTED', count: 1 },
      { error: 'disk full', count: 1 },
    ]);
    expect((await get('/api/stats/errors?nsapp=docker')).body).toEqual([{ error: 'disk full', count: 1 }]);
  });

  it('records: newest first, paginated, filtered by status, app, type, os and dates', async () => {
    const all = (await get('/api/records?limit=3')).body;
    expect(all).toMatchObject({ page: 1, limit: 3, total: 8, totalExact: true, totalPages: 3 });
    expect(all.records.map((r: { random_id: string }) => r.random_id)).toEqual([uuid(8), uuid(7), uuid(6)]);
    expect((await get('/api/records?limit=3&page=3')).body.records).toHaveLength(2);
    const failed = (await get('/api/records?status=failed')).body;
    expect(failed.total).toBe(3);
    expect(failed.records.every((r: { status: string }) => r.status === 'failed')).toBe(true);
    expect((await get('/api/records?nsapp=pihole&status=done')).body.total).toBe(2);
    expect((await get('/api/records?type=vm')).body.records.map((r: { nsapp: string }) => r.nsapp)).toEqual(['docker']);
    expect((await get('/api/records?os=ubuntu')).body.total).toBe(2);
    expect((await get('/api/records?from=2026-11-22')).body.total).toBe(2);
    const combined = (await get('/api/records?nsapp=docker&os=ubuntu&type=lxc')).body;
    expect(combined).toMatchObject({ total: 1, totalExact: true });
    expect(combined.records).toHaveLength(1);
  });

  it.each([
    '/api/stats/summary?from=2026-13-01',
    '/api/stats/summary?from=yesterday',
    '/api/stats/summary?from=2026-02-30',
    '/api/stats/summary?from=2026-11-22&to=2026-11-01',
    '/api/stats/summary?bogus=1',
    '/api/stats/apps?limit=0',
    '/api/stats/apps?limit=abc',
    '/api/stats/errors?limit=1000',
    '/api/records?page=0',
    '/api/records?limit=101',
    '/api/records?status=exploded',
    '/api/records?type=docker',
    '/api/records?page=101&limit=100',
  ])('400 for bad query parameters: %s', async (url) => {
    const r = await get(url);
    expect(r.status).toBe(400);
    expect(r.body.error).toBe('validation_failed');
    expect(r.body.message).toMatch(/query/);
  });

  it('health, OpenAPI document and 404/405 from the shared error handling', async () => {
    expect((await get('/api/health')).body).toEqual({ status: 'ok', database: dialect });
    const doc = (await get('/api/openapi.json')).body;
    expect(Object.keys(doc.paths)).toContain('/upload/updatestatus');
    expect((await get('/nope')).status).toBe(404);
    const wrong = await t.app.inject({ method: 'GET', url: '/upload' });
    expect(wrong.statusCode).toBe(405);
    const preflight = await t.app.inject({ method: 'OPTIONS', url: '/api/stats/summary' });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-methods']).toContain('GET');
  });
});
