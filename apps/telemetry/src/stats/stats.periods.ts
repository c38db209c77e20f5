import type { DayRange } from './stats.store.js';

/** A slice of a date range answered by one grain of `install_totals`: inclusive bounds in that grain's keys. */
export interface Segment {
  grain: 'd' | 'm' | 't';
  from: string;
  to: string;
}

export const ALL_TIME: DayRange = { from: '0000-01-01', to: '9999-12-31' };

const DAY = 86_400_000;
const ms = (day: string) => Date.parse(`${day}T00:00:00Z`);
const iso = (t: number) => new Date(t).toISOString().slice(0, 10);

function addMonths(month: string, delta: number): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const n = y * 12 + (m - 1) + delta;
  return `${String(Math.floor(n / 12)).padStart(4, '0')}-${String((n % 12) + 1).padStart(2, '0')}`;
}

// The open end of a range is 9999-12-31; JavaScript dates cannot name the day after it.
const LAST_MONTH = ALL_TIME.to.slice(0, 7);

function lastDayOf(month: string): string {
  return month >= LAST_MONTH ? ALL_TIME.to : iso(ms(`${addMonths(month, 1)}-01`) - DAY);
}

/**
 * Splits a day range into edge days and whole months (all time is one row per key), so a statistic over a
 * year reads ~13 monthly rows per key instead of 365 daily ones.
 */
export function segmentsOf(range: DayRange): Segment[] {
  if (range.from <= ALL_TIME.from && range.to >= ALL_TIME.to) return [{ grain: 't', from: '', to: '' }];
  const fromMonth = range.from.slice(0, 7);
  const toMonth = range.to.slice(0, 7);
  const firstFull = range.from.endsWith('-01') ? fromMonth : addMonths(fromMonth, 1);
  const lastFull = range.to === lastDayOf(toMonth) ? toMonth : addMonths(toMonth, -1);
  if (firstFull > lastFull) return [{ grain: 'd', from: range.from, to: range.to }];
  const out: Segment[] = [];
  const head = `${firstFull}-01`;
  if (range.from < head) out.push({ grain: 'd', from: range.from, to: iso(ms(head) - DAY) });
  out.push({ grain: 'm', from: firstFull, to: lastFull });
  if (lastFull < LAST_MONTH) {
    const tail = iso(ms(lastDayOf(lastFull)) + DAY);
    if (range.to >= tail) out.push({ grain: 'd', from: tail, to: range.to });
  }
  return out;
}
