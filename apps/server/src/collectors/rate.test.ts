import { describe, expect, it } from 'vitest';
import { RateTracker } from './rate.js';

describe('RateTracker', () => {
  it('gives per-second rates between samples, 0 first, after a counter reset and for a stale time', () => {
    const r = new RateTracker();
    expect(r.rates('a', 0, [100, 100])).toEqual([0, 0]);
    expect(r.rates('a', 10_000, [1100, 50])).toEqual([100, 0]);
    expect(r.rates('a', 10_000, [2100, 60])).toEqual([0, 0]);
    expect(r.rates('a', 12_000, [2101, 80])).toEqual([1, 10]);
  });

  it('forgets resources not sampled since the previous sweep', () => {
    const r = new RateTracker();
    r.rates('a', 0, [1]);
    r.rates('b', 0, [1]);
    r.sweep();
    r.rates('a', 1_000, [2]);
    r.sweep();
    expect(r.size).toBe(1);
    expect(r.rates('b', 2_000, [5])).toEqual([0]);
    expect(r.rates('a', 2_000, [4])).toEqual([2]);
  });
});
