import { describe, expect, it } from 'vitest';
import { ALL_TIME, segmentsOf } from './stats.periods.js';

describe('segmentsOf', () => {
  it('all time is one row per key', () => {
    expect(segmentsOf(ALL_TIME)).toEqual([{ grain: 't', from: '', to: '' }]);
  });
  it('a range inside one month reads days', () => {
    expect(segmentsOf({ from: '2026-11-03', to: '2026-11-20' })).toEqual([
      { grain: 'd', from: '2026-11-03', to: '2026-11-20' },
    ]);
  });
  it('edge days around whole months, across a year boundary and February of a leap year', () => {
    expect(segmentsOf({ from: '2023-12-15', to: '2024-03-02' })).toEqual([
      { grain: 'd', from: '2023-12-15', to: '2023-12-31' },
      { grain: 'm', from: '2024-01', to: '2024-02' },
      { grain: 'd', from: '2024-03-01', to: '2024-03-02' },
    ]);
  });
  it('exact month bounds need no days; open ends run to the limits', () => {
    expect(segmentsOf({ from: '2026-02-01', to: '2026-02-28' })).toEqual([
      { grain: 'm', from: '2026-02', to: '2026-02' },
    ]);
    expect(segmentsOf({ from: '2026-10-23', to: ALL_TIME.to })).toEqual([
      { grain: 'd', from: '2026-10-23', to: '2026-10-31' },
      { grain: 'm', from: '2026-11', to: '9999-12' },
    ]);
    expect(segmentsOf({ from: ALL_TIME.from, to: '2026-11-21' })).toEqual([
      { grain: 'm', from: '0000-01', to: '2026-10' },
      { grain: 'd', from: '2026-11-01', to: '2026-11-21' },
    ]);
  });
});
