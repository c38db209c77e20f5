import {
  type MetricName,
  type MetricsResourceType,
  metricNames,
  metricsByResourceType,
  metricsResourceTypes,
} from '@svc/contract';
import { sql } from 'kysely';
import type { Db } from '../../platform/db/index.js';
import type { TierRow } from './metrics.downsample.js';
import { createRollups, type RollupOptions } from './metrics.rollup.js';
import { createStatsReader } from './metrics.stats.js';
import { type Segment, tableOf } from './metrics.tiers.js';

export interface MetricPoint {
  orgId: string;
  resourceType: MetricsResourceType;
  resourceId: string;
  metric: MetricName;
  value: number;
  /** Unix milliseconds; stored at one-second precision. */
  timestamp: number;
}

export interface WriteResult {
  written: number;
  /** Points dropped: a metric not recorded for the type, or a non-finite value. */
  rejected: number;
}

const metricIndex = new Map<MetricName, number>(metricNames.map((m, i) => [m, i]));
const recorded = Object.fromEntries(
  metricsResourceTypes.map((t) => [t, new Set<MetricName>(metricsByResourceType[t])]),
) as Record<MetricsResourceType, Set<MetricName>>;
const PG_CHUNK = 5000;

type SampleRow = [seriesId: number, ts: number, value: number];

/**
 * The metrics store: series dictionary, raw writes, tier reads, rollups and retention. The write hot path on
 * SQLite uses prepared statements on the raw connection; everything else goes through Kysely.
 */
export function createMetricsStore(handle: Db, opts: RollupOptions = {}) {
  const { db } = handle;
  // org \u0001 type \u0001 id -> series id per metric index (0: not yet known). Series ids start at 1.
  const cache = new Map<string, Int32Array>();
  const keyOf = (p: { orgId: string; resourceType: string; resourceId: string }) =>
    `${p.orgId}\u0001${p.resourceType}\u0001${p.resourceId}`;

  // A poll lists all metrics of a resource together: remembering the previous resource skips most key builds.
  let last: { orgId: string; resourceType: string; resourceId: string; ids: Int32Array | undefined } | null = null;
  function cached(p: MetricPoint): number {
    if (!last || last.resourceId !== p.resourceId || last.resourceType !== p.resourceType || last.orgId !== p.orgId) {
      last = { orgId: p.orgId, resourceType: p.resourceType, resourceId: p.resourceId, ids: cache.get(keyOf(p)) };
    }
    return last.ids?.[metricIndex.get(p.metric)!] ?? 0;
  }
  function remember(p: Omit<MetricPoint, 'value' | 'timestamp'>, id: number): void {
    const key = keyOf(p);
    let ids = cache.get(key);
    if (!ids) {
      ids = new Int32Array(metricNames.length);
      cache.set(key, ids);
      last = null;
    }
    ids[metricIndex.get(p.metric)!] = id;
  }

  const sqliteWriter = handle.sqlite ? createSqliteWriter(handle.sqlite, cached, remember) : null;

  async function writePg(points: readonly MetricPoint[]): Promise<void> {
    await db.transaction().execute(async (trx) => {
      const missing = points.filter((p) => cached(p) === 0);
      for (let i = 0; i < missing.length; i += PG_CHUNK) {
        const chunk = missing.slice(i, i + PG_CHUNK).map((p) => ({
          org_id: p.orgId,
          resource_type: p.resourceType,
          resource_id: p.resourceId,
          metric: p.metric,
        }));
        await trx
          .insertInto('metric_series')
          .values(chunk)
          .onConflict((oc) => oc.doNothing())
          .execute();
        const found = await trx
          .selectFrom('metric_series')
          .select(['id', 'org_id', 'resource_type', 'resource_id', 'metric'])
          .where('org_id', 'in', [...new Set(chunk.map((c) => c.org_id))])
          .where('resource_id', 'in', [...new Set(chunk.map((c) => c.resource_id))])
          .execute();
        for (const f of found) {
          remember(
            {
              orgId: f.org_id,
              resourceType: f.resource_type as MetricsResourceType,
              resourceId: f.resource_id,
              metric: f.metric as MetricName,
            },
            f.id,
          );
        }
      }
      const rows = dedupe(points.map((p) => [cached(p), Math.floor(p.timestamp / 1000), p.value] as SampleRow));
      for (let i = 0; i < rows.length; i += PG_CHUNK) {
        const values = rows.slice(i, i + PG_CHUNK).map(([series_id, ts, value]) => ({ series_id, ts, value }));
        await trx
          .insertInto('metric_raw')
          .values(values)
          .onConflict((oc) =>
            oc.columns(['ts', 'series_id']).doUpdateSet((eb) => ({ value: eb.ref('excluded.value') })),
          )
          .execute();
      }
    });
  }

  /**
   * Rows of some series in a time window. With few series in the store a range scan of the time-first key is
   * cheapest; with many, a loose index scan walks the distinct timestamps and seeks each wanted series at each,
   * so the cost grows with timestamps x series asked for, not with the size of the estate.
   */
  async function readTier(
    ids: readonly number[],
    s: Segment,
    loose: boolean,
  ): Promise<(TierRow & { series_id: number })[]> {
    const t = sql.table(tableOf(s.tier));
    const cols =
      s.tier === 'raw'
        ? sql`r.series_id, r.ts, r.value as "avg", r.value as "min", r.value as "max", 1 as n`
        : sql`r.series_id, r.ts, r."avg", r."min", r."max", r.n`;
    const wanted = sql`r.series_id in (${sql.join([...ids])})`;
    const query = loose
      ? sql<TierRow & { series_id: number }>`with recursive steps(ts) as (
          select min(x.ts) from ${t} x where x.ts >= ${s.from} and x.ts < ${s.to}
          union all
          select (select x.ts from ${t} x where x.ts > steps.ts and x.ts < ${s.to} order by x.ts limit 1)
          from steps where steps.ts is not null
        )
        select ${cols} from steps join ${t} r on r.ts = steps.ts where ${wanted}`
      : sql<TierRow & { series_id: number }>`select ${cols} from ${t} r
          where r.ts >= ${s.from} and r.ts < ${s.to} and ${wanted}`;
    const res = await query.execute(db);
    return res.rows.map((r) => ({ ...r, ts: Number(r.ts), n: Number(r.n) }));
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
    /** One poll's points in one transaction. Invalid points are counted and dropped, never half-written. */
    async writeBatch(points: readonly MetricPoint[]): Promise<WriteResult> {
      const valid = points.filter((p) => Number.isFinite(p.value) && recorded[p.resourceType]?.has(p.metric));
      if (valid.length > 0) {
        // Holding Kysely's connection keeps the raw writes from interleaving with an open Kysely transaction.
        if (sqliteWriter) await db.connection().execute(async () => sqliteWriter(valid));
        else await writePg(valid);
      }
      return { written: valid.length, rejected: points.length - valid.length };
    },

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
    async readSegments(seriesIds: readonly number[], segments: readonly Segment[]): Promise<Map<number, TierRow[]>> {
      const out = new Map<number, TierRow[]>(seriesIds.map((id) => [id, []]));
      if (seriesIds.length === 0) return out;
      // A seek costs about as much as stepping over ten rows.
      const loose = (await seriesUpperBound()) > 10 * (seriesIds.length + 1);
      for (const s of segments) {
        const rows = await readTier(seriesIds, s, loose);
        for (const r of rows) out.get(r.series_id)?.push(r);
      }
      return out;
    },

    ...createRollups(handle, opts),
    ...createStatsReader(handle),
  };
}

export type MetricsStore = ReturnType<typeof createMetricsStore>;

/** Two points of a series in the same second: the later one wins (PostgreSQL refuses both in one upsert). */
function dedupe(rows: SampleRow[]): SampleRow[] {
  const seen = new Map<string, number>();
  const out: SampleRow[] = [];
  for (const r of rows) {
    const k = `${r[0]}:${r[1]}`;
    const at = seen.get(k);
    if (at === undefined) {
      seen.set(k, out.length);
      out.push(r);
    } else out[at] = r;
  }
  return out;
}

function createSqliteWriter(
  sqlite: NonNullable<Db['sqlite']>,
  cached: (p: MetricPoint) => number,
  remember: (p: MetricPoint, id: number) => void,
): (points: readonly MetricPoint[]) => void {
  let stmts: ReturnType<typeof prepare> | null = null;
  function prepare() {
    return {
      insert: sqlite.prepare(
        'INSERT INTO metric_raw (series_id, ts, value) VALUES (?, ?, ?) ON CONFLICT (ts, series_id) DO UPDATE SET value = excluded.value',
      ),
      addSeries: sqlite.prepare(
        'INSERT INTO metric_series (org_id, resource_type, resource_id, metric) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING',
      ),
      seriesId: sqlite
        .prepare(
          'SELECT id FROM metric_series WHERE org_id = ? AND resource_type = ? AND resource_id = ? AND metric = ?',
        )
        .pluck(),
    };
  }
  // Statements are prepared on first use: the tables exist only once migrations have run.
  const run = sqlite.transaction((points: readonly MetricPoint[]) => {
    stmts ??= prepare();
    const s = stmts;
    for (const p of points) {
      let id = cached(p);
      if (id === 0) {
        s.addSeries.run(p.orgId, p.resourceType, p.resourceId, p.metric);
        id = s.seriesId.get(p.orgId, p.resourceType, p.resourceId, p.metric) as number;
        remember(p, id);
      }
      s.insert.run(id, Math.floor(p.timestamp / 1000), p.value);
    }
  });
  return (points) => run(points);
}
