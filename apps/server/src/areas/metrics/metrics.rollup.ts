import type { MetricsTier } from '@svc/contract';
import { type Kysely, sql } from 'kysely';
import type { Database, Db } from '../../platform/db/index.js';
import { type Retention, type RollupTier, rollupChain, tableOf, tiers } from './metrics.tiers.js';

export interface RollupResult {
  tier: RollupTier;
  /** Unix seconds [from, to) that were rolled up in this run; absent when there was nothing new. */
  from?: number;
  to?: number;
  buckets: number;
}

export interface PruneResult {
  tier: MetricsTier;
  cutoff: number | null;
  deleted: number;
}

export interface RollupOptions {
  /** Raw samples may arrive this many seconds after their timestamp; a minute closes only after that. */
  lateSeconds?: number;
}

type Q = Kysely<Database>;

async function readWatermarks(db: Q): Promise<Record<RollupTier, number | null>> {
  const rows = await db.selectFrom('metric_rollup_state').select(['tier', 'watermark']).execute();
  const wm: Record<RollupTier, number | null> = { minute: null, hour: null, day: null };
  for (const r of rows) if (r.tier in wm) wm[r.tier as RollupTier] = Number(r.watermark);
  return wm;
}

/** The oldest timestamp in a tier: the first key of its time-first primary key. */
async function firstTimestamp(db: Q, tier: MetricsTier): Promise<number | null> {
  const r = await db
    .selectFrom(tableOf(tier))
    .select((eb) => eb.fn.min('ts').as('first'))
    .executeTakeFirst();
  return r?.first === null || r?.first === undefined ? null : Number(r.first);
}

/** Folds [from, to) of the source tier into the target: one range scan over the time-first key. */
async function rollInto(db: Q, step: (typeof rollupChain)[number], from: number, to: number): Promise<number> {
  const size = sql.lit(step.size);
  const bucket = sql`(ts / ${size}) * ${size}`;
  const agg =
    step.source === 'raw'
      ? sql`avg(value), min(value), max(value), count(*)`
      : sql`sum("avg" * n) / sum(n), min("min"), max("max"), sum(n)`;
  const r = await sql`insert into ${sql.table(tableOf(step.tier))} (series_id, ts, "avg", "min", "max", n)
    select series_id, ${bucket}, ${agg} from ${sql.table(tableOf(step.source))}
    where ts >= ${from} and ts < ${to}
    group by series_id, ${bucket}
    on conflict (ts, series_id) do update
    set "avg" = excluded."avg", "min" = excluded."min", "max" = excluded."max", n = excluded.n`.execute(db);
  return Number(r.numAffectedRows ?? 0);
}

/**
 * Incremental rollups and retention. Each rollup tier keeps a watermark: buckets before it are complete, so
 * a run reads only source rows in [watermark, last complete bucket) and never rescans history. Re-running
 * over the same window recomputes the same buckets (upsert), so two instances sharing PostgreSQL are safe.
 */
export function createRollups(handle: Db, opts: RollupOptions = {}) {
  const { db } = handle;
  const late = opts.lateSeconds ?? 30;

  async function rollupTier(step: (typeof rollupChain)[number], nowSec: number): Promise<RollupResult> {
    const wm = await readWatermarks(db);
    const sourceDone = step.source === 'raw' ? nowSec - late : wm[step.source as RollupTier];
    if (sourceDone === null) return { tier: step.tier, buckets: 0 };
    const to = Math.floor(sourceDone / step.size) * step.size;
    let from = wm[step.tier];
    if (from === null) {
      const first = await firstTimestamp(db, step.source);
      if (first === null) return { tier: step.tier, buckets: 0 };
      from = Math.floor(first / step.size) * step.size;
    }
    if (from >= to) return { tier: step.tier, buckets: 0 };
    const start = from;
    const buckets = await db.transaction().execute(async (trx) => {
      const n = await rollInto(trx, step, start, to);
      await trx
        .insertInto('metric_rollup_state')
        .values({ tier: step.tier, watermark: to })
        .onConflict((oc) => oc.column('tier').doUpdateSet({ watermark: to }))
        .execute();
      return n;
    });
    return { tier: step.tier, from: start, to, buckets };
  }

  return {
    /** Rolls every tier forward to `nowSec` (Unix seconds), finest first so coarser tiers see fresh input. */
    async rollup(nowSec: number): Promise<RollupResult[]> {
      const out: RollupResult[] = [];
      for (const step of rollupChain) out.push(await rollupTier(step, nowSec));
      return out;
    },

    /**
     * Deletes rows older than each tier's retention: a prefix of the time-first key. A tier's rows are kept
     * until the next tier has rolled them up, so a stalled rollup never loses data.
     */
    async prune(nowSec: number, retention: Retention): Promise<PruneResult[]> {
      const wm = await readWatermarks(db);
      const out: PruneResult[] = [];
      for (const { tier } of tiers) {
        const consumer = rollupChain.find((c) => c.source === tier);
        const rolled = consumer ? wm[consumer.tier] : Number.POSITIVE_INFINITY;
        if (rolled === null) {
          out.push({ tier, cutoff: null, deleted: 0 });
          continue;
        }
        const cutoff = Math.min(nowSec - retention[tier], rolled);
        const r = await db.deleteFrom(tableOf(tier)).where('ts', '<', cutoff).executeTakeFirst();
        out.push({ tier, cutoff, deleted: Number(r.numDeletedRows) });
      }
      return out;
    },

    watermarks: () => readWatermarks(db),
  };
}
