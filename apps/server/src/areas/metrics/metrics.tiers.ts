import type { MetricsTier } from '@svc/contract';

export type RollupTier = Exclude<MetricsTier, 'raw'>;
export type Retention = Record<MetricsTier, number>;

const HOUR = 3600;
const DAY = 86_400;

/** Finest first. `resolution` is the bucket width in seconds (raw rows are whatever the poll interval is). */
export const tiers: readonly { tier: MetricsTier; table: TierTable; resolution: number }[] = [
  { tier: 'raw', table: 'metric_raw', resolution: 1 },
  { tier: 'minute', table: 'metric_minute', resolution: 60 },
  { tier: 'hour', table: 'metric_hour', resolution: HOUR },
  { tier: 'day', table: 'metric_day', resolution: DAY },
];
export type TierTable = 'metric_raw' | 'metric_minute' | 'metric_hour' | 'metric_day';

/** Each rollup tier is built from the tier just finer than it. */
export const rollupChain: readonly { tier: RollupTier; source: MetricsTier; size: number }[] = [
  { tier: 'minute', source: 'raw', size: 60 },
  { tier: 'hour', source: 'minute', size: HOUR },
  { tier: 'day', source: 'hour', size: DAY },
];

export const tableOf = (tier: MetricsTier): TierTable => `metric_${tier}` as TierTable;

export const defaultRetention: Retention = { raw: 2 * HOUR, minute: DAY, hour: 7 * DAY, day: 90 * DAY };
/** With the licence feature long_term_metrics the hourly tier is kept as long as the daily one. */
export const longTermHourRetention = 90 * DAY;
/** Ranges beyond this need long_term_metrics. */
export const FREE_HISTORY_SECONDS = 7 * DAY;

export interface QueryPlan {
  tier: MetricsTier;
  /** Bucket width of the answer, a multiple of the tier's resolution. */
  step: number;
}

/**
 * The coarsest tier that still gives the requested resolution, among tiers whose retention covers the range;
 * when none is fine enough, the finest covering one. `step` is at least range/(maxPoints-1) so that buckets
 * aligned to multiples of `step` never exceed maxPoints, even when the range straddles two partial buckets.
 */
export function planQuery(rangeSeconds: number, maxPoints: number, retention: Retention): QueryPlan {
  const wanted = maxPoints > 1 ? Math.ceil(rangeSeconds / (maxPoints - 1)) : rangeSeconds + 1;
  const covering = tiers.filter((t) => retention[t.tier] >= rangeSeconds);
  const pool = covering.length > 0 ? covering : [tiers[tiers.length - 1]!];
  const fine = pool.filter((t) => t.resolution <= wanted);
  const chosen = fine.length > 0 ? fine[fine.length - 1]! : pool[0]!;
  const step = Math.ceil(Math.max(wanted, chosen.resolution) / chosen.resolution) * chosen.resolution;
  return { tier: chosen.tier, step };
}

export interface Segment {
  tier: MetricsTier;
  /** Unix seconds, inclusive. */
  from: number;
  /** Unix seconds, exclusive. */
  to: number;
}

/**
 * Where to read [start, end) from: the chosen tier up to its rollup watermark, then each finer tier for the
 * part not yet rolled up, so the newest minutes are never missing from a coarse answer.
 */
export function segmentsFor(
  chosen: MetricsTier,
  start: number,
  end: number,
  watermarks: Record<RollupTier, number | null>,
): Segment[] {
  const idx = tiers.findIndex((t) => t.tier === chosen);
  const complete = (i: number): number => (i === 0 ? end : (watermarks[tiers[i]!.tier as RollupTier] ?? start));
  const out: Segment[] = [];
  let from = start;
  for (let i = idx; i >= 0; i--) {
    const to = Math.min(end, Math.max(from, complete(i)));
    if (to > from) out.push({ tier: tiers[i]!.tier, from, to });
    from = Math.max(from, to);
    if (from >= end) break;
  }
  return out;
}
