import { type MetricName, type MetricsResourceType, metricsByResourceType, metricsResourceTypes } from '@svc/contract';
import type { Db } from '../../platform/db/index.js';
import { createTierReader } from './metrics.read.js';
import { createRollups, type RollupOptions } from './metrics.rollup.js';
import { createSeriesCache } from './metrics.series-cache.js';
import { createStatsReader } from './metrics.stats.js';

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
  const { cached, remember } = createSeriesCache();

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

    ...createTierReader(handle),
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
