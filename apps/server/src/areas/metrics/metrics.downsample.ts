/** One stored row in rollup shape; a raw sample is a row with avg = min = max = value and n = 1. */
export interface TierRow {
  ts: number;
  avg: number;
  min: number;
  max: number;
  n: number;
}

export interface Point {
  /** Bucket start, Unix milliseconds. */
  t: number;
  avg: number;
  min: number;
  max: number;
}

/**
 * Folds rows into buckets of `step` seconds aligned to multiples of `step`. Averages are weighted by each
 * row's sample count, so an hour built from 360 samples outweighs a minute built from 6.
 */
export function downsample(
  rows: readonly TierRow[],
  window: { start: number; end: number; step: number; maxPoints: number },
): Point[] {
  const { start, end, step } = window;
  const origin = Math.floor(start / step) * step;
  // The plan's step keeps this within maxPoints for maxPoints >= 2; with 1, the straddled tail folds in.
  const count = Math.max(1, Math.min(window.maxPoints, Math.ceil((end - origin) / step)));
  const sum = new Float64Array(count);
  const n = new Float64Array(count);
  const lo = new Float64Array(count).fill(Number.POSITIVE_INFINITY);
  const hi = new Float64Array(count).fill(Number.NEGATIVE_INFINITY);
  for (const r of rows) {
    // Rows may already be buckets of `step` (aligned the same way), whose start can precede `start`.
    if (r.ts < origin || r.ts >= end) continue;
    const i = Math.min(count - 1, Math.floor((r.ts - origin) / step));
    sum[i]! += r.avg * r.n;
    n[i]! += r.n;
    if (r.min < lo[i]!) lo[i] = r.min;
    if (r.max > hi[i]!) hi[i] = r.max;
  }
  const out: Point[] = [];
  for (let i = 0; i < count; i++) {
    if (n[i] === 0) continue;
    out.push({ t: (origin + i * step) * 1000, avg: sum[i]! / n[i]!, min: lo[i]!, max: hi[i]! });
  }
  return out;
}
