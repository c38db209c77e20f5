import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TestTelemetry } from '../testing/app.js';
import { dialects, report, telemetryOn, uuid } from '../testing/dialects.js';

const HOUR = 3_600_000;

describe.each(dialects)('reaper and retention on %s (fake clock)', (dialect) => {
  let t: TestTelemetry;
  beforeEach(async () => {
    t = await telemetryOn(dialect, { env: { SVC_TELEMETRY_RATE_LIMIT: '0', SVC_TELEMETRY_RETENTION_DAYS: '30' } });
  });
  afterEach(() => t.close());
  const post = (url: string, body: unknown) =>
    t.app.inject({
      method: 'POST',
      url,
      payload: JSON.stringify(body),
      headers: { 'content-type': 'application/json' },
    });
  const summary = async () => (await t.app.inject({ method: 'GET', url: '/api/stats/summary' })).json();
  const status = async (n: number) =>
    (await t.app.inject({ method: 'GET', url: '/api/records?limit=100' }))
      .json()
      .records.find((r: { random_id: string }) => r.random_id === uuid(n))?.status;

  it('marks installs still in progress after 24 h as unknown, keeping the totals in step', async () => {
    await post('/upload', report(1));
    await post('/upload', report(2));
    await post('/upload/updatestatus', { random_id: uuid(2), status: 'configuring', error: '' });
    await post('/upload', report(3));
    await post('/upload/updatestatus', { random_id: uuid(3), status: 'failed', error: 'x' });
    t.clock.advance(23 * HOUR);
    await post('/upload', report(4));
    expect(await t.reaper.runOnce()).toEqual({ reaped: 0, purged: 0 });
    t.clock.advance(1 * HOUR + 1);
    expect(await t.reaper.runOnce()).toEqual({ reaped: 2, purged: 0 });
    expect([await status(1), await status(2), await status(3), await status(4)]).toEqual([
      'unknown',
      'unknown',
      'failed',
      'installing',
    ]);
    expect(await summary()).toMatchObject({ total: 4, unknown: 2, inProgress: 1, failed: 1 });
    // A late real outcome still wins over the reaper's guess.
    expect((await post('/upload/updatestatus', { random_id: uuid(1), status: 'done', error: 'none' })).statusCode).toBe(
      200,
    );
    expect(await summary()).toMatchObject({ unknown: 1, success: 1 });
  });

  it('reaps in chunks: more stale installs than one chunk all end unknown', async () => {
    for (let i = 0; i < 1100; i++)
      await t.writer.write(async (tx, d) => {
        const { insertReport } = await import('./ingest.store.js');
        const { installReport } = await import('../contract.schemas.js');
        return insertReport(tx, d, installReport.parse(report(10_000 + i)), t.clock.now());
      });
    t.clock.advance(25 * HOUR);
    expect((await t.reaper.runOnce()).reaped).toBe(1100);
    expect(await summary()).toMatchObject({ total: 1100, unknown: 1100, inProgress: 0 });
  });

  it('deletes records older than the retention period and takes them out of the statistics', async () => {
    await post('/upload', report(1));
    await post('/upload/updatestatus', { random_id: uuid(1), status: 'failed', error: 'old' });
    t.clock.advance(20 * 24 * HOUR);
    await post('/upload', report(2));
    t.clock.advance(11 * 24 * HOUR);
    const r = await t.reaper.runOnce();
    expect(r.purged).toBe(1);
    expect(await status(1)).toBeUndefined();
    expect(await summary()).toMatchObject({ total: 1, failed: 0, unknown: 1 });
    expect((await t.app.inject({ method: 'GET', url: '/api/stats/errors' })).json()).toEqual([]);
  });
});
