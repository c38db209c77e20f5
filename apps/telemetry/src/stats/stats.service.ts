import type { z } from 'zod';
import type { appStats, RecordsQuery, summary } from '../contract.schemas.js';
import { MAX_PAGED } from '../contract.schemas.js';
import { outcomeOf, statuses } from '../ingest/ingest.status.js';
import { ALL_TIME } from './stats.periods.js';
import type { CountRow, DayRange, StatsStore, StatusTotals } from './stats.store.js';

export interface Counts {
  total: number;
  success: number;
  failed: number;
  aborted: number;
  inProgress: number;
  unknown: number;
  failureRate: number | null;
}

const ALL = ALL_TIME;
const MAX_FILLED_DAYS = 3660;

function rangeOf(q: { from?: string | undefined; to?: string | undefined }): DayRange {
  return { from: q.from ?? ALL.from, to: q.to ?? ALL.to };
}

function emptyCounts(): Counts {
  return { total: 0, success: 0, failed: 0, aborted: 0, inProgress: 0, unknown: 0, failureRate: null };
}

function addTo(c: Counts, status: string, n: number): void {
  c.total += n;
  const o = outcomeOf(status);
  if (o === 'in_progress') c.inProgress += n;
  else c[o] += n;
}

const columns = statuses.map((status) => [status, `n_${status}` as const] as const);

/** Adds one stored row's counters; `each` sees every status with a non-zero count (for byStatus). */
function addRow(c: Counts, row: StatusTotals, each?: (status: string, n: number) => void): void {
  for (const [status, column] of columns) {
    const n = Number(row[column]);
    if (n === 0) continue;
    addTo(c, status, n);
    each?.(status, n);
  }
}

/** Rates are over finished installs only: a running install is neither a success nor a failure yet. */
function finish<T extends Counts>(c: T): T {
  const finished = c.success + c.failed + c.aborted;
  c.failureRate = finished > 0 ? round(c.failed / finished) : null;
  return c;
}

const round = (x: number) => Math.round(x * 10_000) / 10_000;

function group<K extends object>(rows: CountRow[], keyOf: (r: CountRow) => string, make: (r: CountRow) => K) {
  const out = new Map<string, K & Counts>();
  for (const r of rows) {
    const k = keyOf(r);
    let c = out.get(k);
    if (!c) {
      // Not `{ ...make(r), ...emptyCounts() }`: a second spread leaves V8 a slow dictionary-mode object,
      // which made grouping a few hundred keys take milliseconds.
      c = Object.assign(make(r), emptyCounts());
      out.set(k, c);
    }
    addRow(c, r);
  }
  // Ties are broken by key so equal counts always come back in the same order.
  return [...out.entries()]
    .sort(([ka, a], [kb, b]) => b.total - a.total || (ka < kb ? -1 : ka > kb ? 1 : 0))
    .map(([, c]) => finish(c))
    .filter((c) => c.total > 0);
}

function* daysBetween(from: string, to: string): Generator<string> {
  for (let t = Date.parse(`${from}T00:00:00Z`), end = Date.parse(`${to}T00:00:00Z`); t <= end; t += 86_400_000) {
    yield new Date(t).toISOString().slice(0, 10);
  }
}

export function createStatsService(store: StatsStore) {
  return {
    async getSummary(q: { from?: string; to?: string }): Promise<z.input<typeof summary>> {
      const range = rangeOf(q);
      const [rows, orphanUpdates] = await Promise.all([store.countsBy('all', range), store.orphanUpdates(range)]);
      const c = emptyCounts();
      const byStatus: Record<string, number> = {};
      for (const r of rows) addRow(c, r, (status, n) => (byStatus[status] = (byStatus[status] ?? 0) + n));
      finish(c);
      const finished = c.success + c.failed + c.aborted;
      const successRate = finished > 0 ? round(c.success / finished) : null;
      return { from: q.from ?? null, to: q.to ?? null, ...c, successRate, byStatus, orphanUpdates };
    },

    async getApps(q: { from?: string; to?: string; limit: number }): Promise<z.input<typeof appStats>> {
      const rows = await store.countsBy('nsapp', rangeOf(q));
      return group(
        rows,
        (r) => r.k1,
        (r) => ({ nsapp: r.k1 }),
      ).slice(0, q.limit);
    },

    async getOs(q: { from?: string; to?: string; limit: number }) {
      const rows = await store.countsBy('os', rangeOf(q));
      return group(
        rows,
        (r) => `${r.k1}\u0000${r.k2}`,
        (r) => ({ os_type: r.k1, os_version: r.k2 }),
      ).slice(0, q.limit);
    },

    async getTypes(q: { from?: string; to?: string }) {
      return group(
        await store.countsBy('type', rangeOf(q)),
        (r) => r.k1,
        (r) => ({ type: r.k1 }),
      );
    },

    async getDays(q: { from?: string; to?: string }) {
      const rows = await store.countsByDay(rangeOf(q));
      const byDay = new Map<string, Counts & { day: string }>();
      for (const r of rows) {
        let c = byDay.get(r.day);
        if (!c) {
          c = { day: r.day, ...emptyCounts() };
          byDay.set(r.day, c);
        }
        addRow(c, r);
      }
      const last = q.to ?? rows.at(-1)?.day;
      let first = q.from ?? rows[0]?.day;
      if (!first || !last) return [];
      // A huge range (from=1900-01-01) keeps its most recent days rather than ten years of zeros.
      const earliest = new Date(Date.parse(`${last}T00:00:00Z`) - (MAX_FILLED_DAYS - 1) * 86_400_000);
      if (first < earliest.toISOString().slice(0, 10)) first = earliest.toISOString().slice(0, 10);
      return [...daysBetween(first, last)].map((day) => finish(byDay.get(day) ?? { day, ...emptyCounts() }));
    },

    async getErrors(q: { from?: string; to?: string; limit: number; nsapp?: string | undefined }) {
      const rows = await store.topErrors(rangeOf(q), q.limit, q.nsapp);
      return rows.map((r) => ({ error: r.error, count: Number(r.count) }));
    },

    async listRecords(q: RecordsQuery) {
      const { records, total, totalExact } = await store.listRecords(q, rangeOf(q));
      const pages = Math.ceil(Math.min(total, MAX_PAGED) / q.limit);
      return { records, page: q.page, limit: q.limit, total, totalExact, totalPages: pages };
    },
  };
}

export type StatsService = ReturnType<typeof createStatsService>;
