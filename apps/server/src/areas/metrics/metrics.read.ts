import type { MetricName, MetricsResourceType } from '@svc/contract';
import { sql } from 'kysely';
import type { Db } from '../../platform/db/index.js';
import type { TierRow } from './metrics.downsample.js';
import { type Segment, tableOf } from './metrics.tiers.js';

/** Reads of the metrics store: a resource's series ids, and rows of some series per time segment. */
export function createTierReader(handle: Db) {
  const { db } = handle;

  /**
   * Rows of some series in a time window, already folded into buckets of `step` seconds by the database (its
   * aggregation is far cheaper than materialising every row in JS). With few series in the store a range scan
   * of the time-first key is cheapest; with many, a loose index scan walks the distinct timestamps and seeks
   * each wanted series at each, so the cost grows with timestamps x series asked for, not with the estate.
   */
  async function readTier(
    ids: readonly number[],
    s: Segment,
    step: number,
    loose: boolean,
  ): Promise<(TierRow & { series_id: number })[]> {
    const t = sql.table(tableOf(s.tier));
    const bucket = sql`(r.ts / ${sql.lit(step)}) * ${sql.lit(step)}`;
    const agg =
      s.tier === 'raw'
        ? sql`sum(r.value) as total, count(*) as n, min(r.value) as lo, max(r.value) as hi`
        : sql`sum(r."avg" * r.n) as total, sum(r.n) as n, min(r."min") as lo, max(r."max") as hi`;
    const wanted = sql`r.series_id in (${sql.join([...ids])})`;
    const from = loose
      ? sql`(with recursive steps(ts) as (
          select min(x.ts) from ${t} x where x.ts >= ${s.from} and x.ts < ${s.to}
          union all
          select (select x.ts from ${t} x where x.ts > steps.ts and x.ts < ${s.to} order by x.ts limit 1)
          from steps where steps.ts is not null
        ) select r.* from steps join ${t} r on r.ts = steps.ts where ${wanted}) r`
      : sql`(select * from ${t} r where r.ts >= ${s.from} and r.ts < ${s.to} and ${wanted}) r`;
    const res = await sql<{ series_id: number; b: number; total: number; n: number; lo: number; hi: number }>`
      select r.series_id, ${bucket} as b, ${agg} from ${from} group by r.series_id, ${bucket}`.execute(db);
    return res.rows.map((r) => ({
      series_id: r.series_id,
      ts: Number(r.b),
      avg: Number(r.total) / Number(r.n),
      min: r.lo,
      max: r.hi,
      n: Number(r.n),
    }));
  }

  /** Series ids are dense from 1, so the largest is a free upper bound on how many series share each timestamp. */
  async function seriesUpperBound(): Promise<number> {
    const r = await db
      .selectFrom('metric_series')
      .select((eb) => eb.fn.max('id').as('top'))
      .executeTakeFirst();
    return Number(r?.top ?? 0);
  }

  return {
    /** Series ids of one resource's metrics (only those ever written). */
    async findSeries(orgId: string, type: MetricsResourceType, resourceId: string): Promise<Map<MetricName, number>> {
      const rows = await db
        .selectFrom('metric_series')
        .select(['id', 'metric'])
        .where('org_id', '=', orgId)
        .where('resource_type', '=', type)
        .where('resource_id', '=', resourceId)
        .execute();
      return new Map(rows.map((r) => [r.metric as MetricName, r.id]));
    },

    /** Rows of the given series in each segment, in rollup shape. */
    async readSegments(
      seriesIds: readonly number[],
      segments: readonly Segment[],
      step: number,
    ): Promise<Map<number, TierRow[]>> {
      const out = new Map<number, TierRow[]>(seriesIds.map((id) => [id, []]));
      if (seriesIds.length === 0) return out;
      // A seek costs about as much as stepping over ten rows.
      const loose = (await seriesUpperBound()) > 10 * (seriesIds.length + 1);
      for (const s of segments) {
        const rows = await readTier(seriesIds, s, step, loose);
        for (const r of rows) out.get(r.series_id)?.push(r);
      }
      return out;
    },
  };
}
