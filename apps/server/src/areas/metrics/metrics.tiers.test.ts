import { describe, expect, it } from 'vitest';
import { downsample } from './metrics.downsample.js';
import { defaultRetention, longTermHourRetention, planQuery, segmentsFor } from './metrics.tiers.js';

const H = 3600;
const D = 86_400;
const longTerm = { ...defaultRetention, hour: longTermHourRetention };

describe('tier choice', () => {
  it.each([
    [H, 500, 'raw', 8, defaultRetention],
    [2 * H, 500, 'raw', 15, defaultRetention],
    [6 * H, 500, 'minute', 60, defaultRetention],
    [24 * H, 500, 'minute', 180, defaultRetention],
    [24 * H, 5000, 'minute', 60, defaultRetention],
    [7 * D, 500, 'hour', H, defaultRetention],
    [7 * D, 100, 'hour', 2 * H, defaultRetention],
    [30 * D, 500, 'hour', 2 * H, longTerm],
    [90 * D, 500, 'hour', 5 * H, longTerm],
    [30 * D, 500, 'day', D, defaultRetention],
    [24 * H, 10, 'hour', 3 * H, defaultRetention],
    [H, 1, 'hour', 2 * H, defaultRetention],
  ] as const)('%is at maxPoints %i -> the %s tier, step %i', (range, maxPoints, tier, step, retention) => {
    expect(planQuery(range, maxPoints, retention)).toEqual({ tier, step });
  });
});

describe('segments', () => {
  it('reads the chosen tier up to its watermark and finer tiers for the rest', () => {
    const wm = { minute: 10_000, hour: 7200, day: 0 };
    expect(segmentsFor('hour', 0, 10_100, wm)).toEqual([
      { tier: 'hour', from: 0, to: 7200 },
      { tier: 'minute', from: 7200, to: 10_000 },
      { tier: 'raw', from: 10_000, to: 10_100 },
    ]);
  });
  it('falls back to finer tiers when the chosen one was never rolled up', () => {
    const wm = { minute: null, hour: null, day: null };
    expect(segmentsFor('day', 100, 200, wm)).toEqual([{ tier: 'raw', from: 100, to: 200 }]);
  });
});

describe('downsample', () => {
  it('weights averages by sample count and keeps extremes', () => {
    const rows = [
      { ts: 0, avg: 10, min: 5, max: 20, n: 3 },
      { ts: 60, avg: 40, min: 40, max: 40, n: 1 },
      { ts: 120, avg: 1, min: 1, max: 1, n: 1 },
    ];
    expect(downsample(rows, { start: 0, end: 180, step: 120, maxPoints: 2 })).toEqual([
      { t: 0, avg: 17.5, min: 5, max: 40 },
      { t: 120_000, avg: 1, min: 1, max: 1 },
    ]);
  });
});
