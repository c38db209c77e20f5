import { FakeClock } from '@svc/platform';
import { createTestDatabase } from '@svc/platform/testing';
import { afterAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { type Db, migrateServerDatabase, openServerDatabase } from '../../platform/db/index.js';
import { createMetricsService } from './metrics.service.js';
import { createMetricsStore, type MetricPoint, type MetricsStore } from './metrics.store.js';
import { defaultRetention } from './metrics.tiers.js';

const T0 = Date.UTC(2026, 0, 1, 22, 0, 0);
const sec = (ms: number) => Math.floor(ms / 1000);

/** A deterministic, non-smooth value so averages, minima and maxima all differ per bucket. */
const valueAt = (ms: number, salt: number) => ((sec(ms) * 7 + salt * 13) % 101) + salt;

function pointsAt(ms: number): MetricPoint[] {
  return [
    {
      orgId: 'default',
      resourceType: 'vm',
      resourceId: 'pve1:100',
      metric: 'cpu',
      value: valueAt(ms, 0),
      timestamp: ms,
    },
    {
      orgId: 'default',
      resourceType: 'vm',
      resourceId: 'pve1:100',
      metric: 'memory',
      value: valueAt(ms, 1),
      timestamp: ms,
    },
    { orgId: 'default', resourceType: 'node', resourceId: 'pve1', metric: 'cpu', value: valueAt(ms, 2), timestamp: ms },
  ];
}

/** Writes a 10-second sample of every series from `from` to `to` (exclusive), one batch per minute. */
async function fill(store: MetricsStore, from: number, to: number): Promise<void> {
  for (let m = from; m < to; m += 60_000) {
    const batch: MetricPoint[] = [];
    for (let t = m; t < Math.min(m + 60_000, to); t += 10_000) batch.push(...pointsAt(t));
    await store.writeBatch(batch);
  }
}

/** What a bucket of [from, to) must hold for series `salt`, computed from the generator, not the store. */
function expected(from: number, to: number, salt: number) {
  const vs: number[] = [];
  for (let t = from; t < to; t += 10_000) vs.push(valueAt(t, salt));
  return { avg: vs.reduce((a, b) => a + b, 0) / vs.length, min: Math.min(...vs), max: Math.max(...vs), n: vs.length };
}

async function openDialect(dialect: 'sqlite' | 'postgres'): Promise<{ db: Db; close(): Promise<void> }> {
  if (dialect === 'sqlite') {
    const db = openServerDatabase({ dataDir: ':memory:', databaseUrl: undefined });
    await migrateServerDatabase(db);
    return { db, close: () => db.close() };
  }
  const pg = await createTestDatabase(inject('pgUrl'));
  const db = openServerDatabase({ dataDir: ':memory:', databaseUrl: pg.url });
  await migrateServerDatabase(db);
  return {
    db,
    async close() {
      await db.close();
      await pg.drop();
    },
  };
}

describe.each(['sqlite', 'postgres'] as const)('metrics store on %s', (dialect) => {
  const opened: { close(): Promise<void> }[] = [];
  afterAll(async () => {
    for (const o of opened) await o.close();
  });
  let store: MetricsStore;
  let db: Db;
  beforeEach(async () => {
    const o = await openDialect(dialect);
    opened.push(o);
    db = o.db;
    store = createMetricsStore(db, { lateSeconds: 0 });
  });

  async function rows(table: 'metric_raw' | 'metric_minute' | 'metric_hour' | 'metric_day') {
    const r = await db.db.selectFrom(table).selectAll().orderBy('series_id').orderBy('ts').execute();
    return r.map((x) => ({ ...x, ts: Number(x.ts) })) as { series_id: number; ts: number; [k: string]: number }[];
  }

  it('writes one batch, drops unknown metric/type pairs and non-finite values, upserts repeats', async () => {
    const bad: MetricPoint[] = [
      { orgId: 'default', resourceType: 'storage', resourceId: 's1', metric: 'cpu', value: 1, timestamp: T0 },
      { orgId: 'default', resourceType: 'vm', resourceId: 'v', metric: 'cpu', value: Number.NaN, timestamp: T0 },
    ];
    expect(await store.writeBatch([...pointsAt(T0), ...bad])).toEqual({ written: 3, rejected: 2 });
    await store.writeBatch([{ ...pointsAt(T0)[0]!, value: 99.5 }]);
    const raw = await rows('metric_raw');
    expect(raw).toHaveLength(3);
    expect(raw.map((r) => r.value)).toContain(99.5);
    expect(raw.every((r) => r.ts === sec(T0))).toBe(true);
    expect((await store.findSeries('default', 'vm', 'pve1:100')).size).toBe(2);
    expect((await store.findSeries('other-org', 'vm', 'pve1:100')).size).toBe(0);
  });

  it('rolls up minute, hour and day buckets with exact avg/min/max across tier boundaries', async () => {
    const clock = new FakeClock(T0);
    // 22:00 to 00:30 the next day: crosses two hour boundaries and one day boundary.
    for (let step = 0; step < 10; step++) {
      const from = T0 + step * 15 * 60_000;
      await fill(store, from, from + 15 * 60_000);
      clock.set(from + 15 * 60_000);
      await store.rollup(sec(clock.now()));
    }
    const series = await store.findSeries('default', 'vm', 'pve1:100');
    const cpu = series.get('cpu')!;
    const minute = (await rows('metric_minute')).filter((r) => r.series_id === cpu);
    expect(minute).toHaveLength(150);
    for (const m of [minute[0]!, minute[59]!, minute[149]!]) {
      expect(m).toMatchObject(expected(m.ts * 1000, m.ts * 1000 + 60_000, 0));
    }
    const hour = (await rows('metric_hour')).filter((r) => r.series_id === cpu);
    expect(hour.map((h) => h.ts)).toEqual([sec(T0), sec(T0) + 3600]);
    for (const h of hour) {
      const want = expected(h.ts * 1000, h.ts * 1000 + 3_600_000, 0);
      expect(h.avg).toBeCloseTo(want.avg, 9);
      expect(h).toMatchObject({ min: want.min, max: want.max, n: 360 });
    }
    const day = (await rows('metric_day')).filter((r) => r.series_id === cpu);
    expect(day).toHaveLength(1);
    expect(day[0]!.ts).toBe(sec(Date.UTC(2026, 0, 1)));
    const want = expected(T0, T0 + 2 * 3_600_000, 0);
    expect(day[0]!.avg).toBeCloseTo(want.avg, 9);
    expect(day[0]).toMatchObject({ min: want.min, max: want.max, n: 720 });
    expect(await store.watermarks()).toEqual({
      minute: sec(T0) + 150 * 60,
      hour: sec(T0) + 2 * 3600,
      day: sec(Date.UTC(2026, 0, 2)),
    });
  });

  it('is incremental: a run reads only rows after the watermark and a repeat run changes nothing', async () => {
    await fill(store, T0, T0 + 5 * 60_000);
    const first = await store.rollup(sec(T0 + 5 * 60_000));
    expect(first[0]).toMatchObject({ tier: 'minute', from: sec(T0), to: sec(T0) + 300 });
    const before = await rows('metric_minute');
    // A late sample for an already rolled-up minute is not re-read: history is never rescanned.
    await store.writeBatch([{ ...pointsAt(T0 + 5_000)[0]!, value: 10_000 }]);
    const again = await store.rollup(sec(T0 + 5 * 60_000 + 59_000));
    expect(again[0]).toEqual({ tier: 'minute', buckets: 0 });
    expect(await rows('metric_minute')).toEqual(before);
    await fill(store, T0 + 5 * 60_000, T0 + 6 * 60_000);
    const next = await store.rollup(sec(T0 + 6 * 60_000));
    expect(next[0]).toMatchObject({ from: sec(T0) + 300, to: sec(T0) + 360, buckets: 3 });
  });

  it('retention deletes only expired rows, and keeps rows the next tier has not rolled up yet', async () => {
    await fill(store, T0, T0 + 3 * 3_600_000);
    // No rollup yet: raw is the only copy, so nothing may go even though most of it is past 2 h.
    const stalled = await store.prune(sec(T0 + 3 * 3_600_000), defaultRetention);
    expect(stalled.find((p) => p.tier === 'raw')).toEqual({ tier: 'raw', cutoff: null, deleted: 0 });
    const now = sec(T0 + 3 * 3_600_000);
    await store.rollup(now);
    const rawBefore = await rows('metric_raw');
    const pruned = await store.prune(now, defaultRetention);
    const cutoff = now - defaultRetention.raw;
    const expired = rawBefore.filter((r) => r.ts < cutoff).length;
    expect(pruned.find((p) => p.tier === 'raw')).toEqual({ tier: 'raw', cutoff, deleted: expired });
    const rawAfter = await rows('metric_raw');
    expect(rawAfter).toEqual(rawBefore.filter((r) => r.ts >= cutoff));
    expect((await rows('metric_minute')).length).toBe(3 * 180);
    expect(pruned.filter((p) => p.tier !== 'raw').every((p) => p.deleted === 0)).toBe(true);
    // A day later the minute rows of the first hours expire too; hour and day rows stay.
    const later = now + 86_400;
    await store.rollup(later);
    const p2 = await store.prune(later, defaultRetention);
    expect(p2.find((p) => p.tier === 'minute')!.deleted).toBe(3 * 180);
    expect((await rows('metric_hour')).length).toBe(3 * 3);
  });

  it('history picks the tier, stays within maxPoints and includes not-yet-rolled-up samples', async () => {
    const clock = new FakeClock(T0);
    const features = new Set<string>();
    const service = createMetricsService(store, { clock, hasFeature: (f) => features.has(f) });
    await fill(store, T0, T0 + 3 * 3_600_000);
    clock.set(T0 + 3 * 3_600_000);
    await store.rollup(sec(clock.now()) - 600); // the last ten minutes exist only as raw rows
    const q = { resourceType: 'guest', resourceId: 'pve1:100', range: '24h', maxPoints: 500 } as const;
    const day = await service.getHistory(null, q);
    expect(day).toMatchObject({ resourceType: 'vm', tier: 'minute', stepSeconds: 180 });
    expect(day.series.map((s) => s.metric)).toEqual([
      'cpu',
      'memory',
      'disk',
      'diskread',
      'diskwrite',
      'netin',
      'netout',
    ]);
    const cpu = day.series[0]!.points;
    expect(cpu.length).toBeLessThanOrEqual(500);
    expect(cpu.length).toBe(60);
    expect(cpu.at(-1)!.t).toBeGreaterThan(clock.now() - 600_000);
    const want = expected(cpu[0]!.t, cpu[0]!.t + 180_000, 0);
    expect(cpu[0]!.avg).toBeCloseTo(want.avg, 9);
    expect(cpu[0]).toMatchObject({ min: want.min, max: want.max });
    const hour = await service.getHistory(null, { ...q, range: '1h', metric: 'cpu' });
    expect(hour.tier).toBe('raw');
    expect(hour.series[0]!.points.length).toBeLessThanOrEqual(500);
    for (const maxPoints of [1, 2, 7, 100, 5000]) {
      const r = await service.getHistory(null, { ...q, range: '2h', maxPoints });
      expect(r.series[0]!.points.length).toBeLessThanOrEqual(maxPoints);
    }
    const week = await service.getHistory(null, { ...q, range: '7d', maxPoints: 500 });
    expect(week.tier).toBe('hour');
    await expect(service.getHistory(null, { ...q, range: '30d' })).rejects.toMatchObject({
      code: 'license_required',
      details: { feature: 'long_term_metrics' },
    });
    features.add('long_term_metrics');
    expect((await service.getHistory(null, { ...q, range: '90d' })).tier).toBe('hour');
  });

  it('reads the same answer through the loose index scan when the store holds many series', async () => {
    const clock = new FakeClock(T0 + 600_000);
    const service = createMetricsService(store, { clock, hasFeature: () => false });
    for (let t = T0; t < T0 + 600_000; t += 10_000) {
      const batch: MetricPoint[] = [];
      for (let g = 0; g < 40; g++) {
        batch.push({
          orgId: 'default',
          resourceType: 'vm',
          resourceId: `g${g}`,
          metric: 'cpu',
          value: g + valueAt(t, 0),
          timestamp: t,
        });
        batch.push({
          orgId: 'default',
          resourceType: 'vm',
          resourceId: `g${g}`,
          metric: 'netin',
          value: g,
          timestamp: t,
        });
      }
      await store.writeBatch(batch);
    }
    const r = await service.getHistory(null, { resourceType: 'vm', resourceId: 'g7', range: '1h', maxPoints: 5000 });
    const cpu = r.series.find((s) => s.metric === 'cpu')!.points;
    expect(cpu).toHaveLength(60);
    expect(cpu.every((p) => p.avg === 7 + valueAt(p.t, 0) && p.min === p.avg && p.max === p.avg)).toBe(true);
    expect(r.series.find((s) => s.metric === 'netin')!.points.every((p) => p.avg === 7)).toBe(true);
  });

  it('stats count rows per tier with their time span and size', async () => {
    const clock = new FakeClock(T0);
    const service = createMetricsService(store, { clock, hasFeature: () => false });
    await service.recordBatch(pointsAt(T0));
    await service.recordBatch(pointsAt(T0 + 10_000));
    const s = await service.getStats(null);
    expect(s.series).toBe(3);
    expect(s.tiers[0]).toMatchObject({ tier: 'raw', rows: 6, oldest: T0, newest: T0 + 10_000, rolledUpTo: null });
    expect(s.tiers.map((t) => t.tier)).toEqual(['raw', 'minute', 'hour', 'day']);
    expect(s.diskBytes).toBeGreaterThan(0);
    expect(s.writes).toMatchObject({ pointsTotal: 6, rejectedTotal: 0, lastWriteAt: T0 });
  });
});
