import type { InstallRecord, RecordsQuery } from '../contract.schemas.js';
import { totalColumns } from '../db/db.migrations.js';
import type { InstallsTable } from '../db/db.schema.js';
import type { SqlRunner } from '../db/index.js';
import type { Status } from '../ingest/ingest.status.js';
import { segmentsOf } from './stats.periods.js';

/** Inclusive UTC day range; absent bounds mean "since the beginning" / "until now". */
export interface DayRange {
  from: string;
  to: string;
}

/** One counter per status (`n_done`, `n_failed`, ...), as stored in `install_totals`. */
export type StatusTotals = Record<`n_${Status}`, number>;

export interface CountRow extends StatusTotals {
  k1: string;
  k2: string;
}

const TOTALS = totalColumns.join(', ');
const SUM_ALL = totalColumns.join(' + ');

const DAY_MS = 86_400_000;

/**
 * Every statistic reads `install_totals` (running totals, one row per key), never scans `installs`: the cost
 * grows with distinct keys × (edge days + months), not with the number of installs.
 */
export function createStatsStore(runner: SqlRunner) {
  /** Runs `sql` (which must filter `grain = ? and day >= ? and day <= ?` first) once per segment. */
  async function overSegments<T>(
    range: DayRange,
    sql: (where: string) => string,
    before: unknown[],
    after: unknown[] = [],
  ) {
    const out: T[] = [];
    for (const seg of segmentsOf(range)) {
      out.push(
        ...(await runner.all<T>(sql('grain = ? and day >= ? and day <= ?'), [
          ...before,
          seg.grain,
          seg.from,
          seg.to,
          ...after,
        ])),
      );
    }
    return out;
  }

  return {
    /** Rows per key; a key may appear once per segment (callers add them up). */
    async countsBy(dim: 'all' | 'nsapp' | 'type' | 'os', range: DayRange): Promise<CountRow[]> {
      return overSegments<CountRow>(
        range,
        (w) =>
          // No GROUP BY: rows arrive in key order from the primary key and the service adds them up, which
          // spares SQLite a temporary B-tree on every request.
          `select k1, k2, ${TOTALS} from install_totals where dim = ? and ${w}`,
        [dim],
      );
    },

    async countsByDay(range: DayRange): Promise<(StatusTotals & { day: string })[]> {
      return runner.all(
        `select day, ${TOTALS} from install_totals
         where dim = 'all' and grain = 'd' and day >= ? and day <= ? and k1 = '' and k2 = '' order by day`,
        [range.from, range.to],
      );
    },

    async topErrors(range: DayRange, limit: number, nsapp?: string): Promise<{ error: string; count: number }[]> {
      const rows =
        nsapp === undefined
          ? await overSegments<{ error: string; n: number }>(
              range,
              (w) => `select k1 as error, ${SUM_ALL} as n from install_totals where dim = 'error' and ${w}`,
              [],
            )
          : await overSegments<{ error: string; n: number }>(
              range,
              (w) =>
                `select k2 as error, ${SUM_ALL} as n from install_totals where dim = 'error_app' and ${w} and k1 = ?`,
              [],
              [nsapp],
            );
      const sums = new Map<string, number>();
      for (const r of rows) sums.set(r.error, (sums.get(r.error) ?? 0) + Number(r.n));
      return [...sums]
        .filter(([, n]) => n > 0)
        .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
        .slice(0, limit)
        .map(([error, count]) => ({ error, count }));
    },

    async orphanUpdates(range: DayRange): Promise<number> {
      const [row] = await runner.all<{ n: number }>(
        'select cast(coalesce(sum(n), 0) as bigint) as n from orphan_updates where day >= ? and day <= ?',
        [range.from, range.to],
      );
      return Number(row?.n ?? 0);
    },

    async listRecords(
      q: RecordsQuery,
      range: DayRange,
    ): Promise<{ records: InstallRecord[]; total: number; totalExact: boolean }> {
      const where: string[] = [];
      const params: unknown[] = [];
      const add = (clause: string, value: unknown) => {
        where.push(clause);
        params.push(value);
      };
      if (q.status) add('status = ?', q.status);
      if (q.nsapp) add('nsapp = ?', q.nsapp);
      if (q.type) add('type = ?', q.type);
      if (q.os) add('os_type = ?', q.os);
      if (q.from) add('created_at >= ?', Date.parse(`${range.from}T00:00:00Z`));
      if (q.to) add('created_at < ?', Date.parse(`${range.to}T00:00:00Z`) + DAY_MS);
      const sqlWhere = where.length > 0 ? `where ${where.join(' and ')}` : '';
      const rows = await runner.all<InstallsTable>(
        `select * from installs ${sqlWhere} order by created_at desc, random_id desc limit ? offset ?`,
        [...params, q.limit, (q.page - 1) * q.limit],
      );
      const exact = await totalFromCounts(runner, q, range);
      if (exact !== undefined) return { records: rows.map(toRecord), total: exact, totalExact: true };
      const counted = await countRows(runner, sqlWhere, params);
      return {
        records: rows.map(toRecord),
        total: Math.min(counted, MAX_COUNTED),
        totalExact: counted <= MAX_COUNTED,
      };
    },
  };
}

export type StatsStore = ReturnType<typeof createStatsStore>;

/** At most one of nsapp/type/os (plus status and dates) is answered by the running totals, not a count. */
async function totalFromCounts(runner: SqlRunner, q: RecordsQuery, range: DayRange): Promise<number | undefined> {
  const dims = [
    ['nsapp', q.nsapp],
    ['type', q.type],
    ['os', q.os],
  ].filter(([, v]) => v !== undefined) as [string, string][];
  if (dims.length > 1) return undefined;
  const [dim, key] = dims[0] ?? ['all', ''];
  let total = 0;
  for (const seg of segmentsOf(range)) {
    const params: unknown[] = [dim, seg.grain, seg.from, seg.to, key];
    // The status is one of the known values (validated), so it names its counter column directly.
    const counted = q.status ? `n_${q.status}` : SUM_ALL;
    const sql = `select cast(coalesce(sum(${counted}), 0) as bigint) as n from install_totals
               where dim = ? and grain = ? and day >= ? and day <= ? and k1 = ?`;
    const [row] = await runner.all<{ n: number }>(sql, params);
    total += Number(row?.n ?? 0);
  }
  return total;
}

/** Counting every match of an arbitrary filter would scan millions of rows: stop at what can be paged. */
export const MAX_COUNTED = 10_000;

async function countRows(runner: SqlRunner, sqlWhere: string, params: unknown[]): Promise<number> {
  const [row] = await runner.all<{ n: number }>(
    `select count(*) as n from (select 1 from installs ${sqlWhere} limit ${MAX_COUNTED + 1}) as matches`,
    params,
  );
  return Number(row?.n ?? 0);
}

function toRecord(r: InstallsTable): InstallRecord {
  return {
    random_id: r.random_id,
    created_at: new Date(Number(r.created_at)).toISOString(),
    updated_at: new Date(Number(r.updated_at)).toISOString(),
    type: r.type,
    nsapp: r.nsapp,
    status: r.status,
    error: r.error,
    ct_type: r.ct_type,
    disk_size: r.disk_size,
    core_count: r.core_count,
    ram_size: r.ram_size,
    os_type: r.os_type,
    os_version: r.os_version,
    disableip6: r.disableip6,
    method: r.method,
    hv_version: r.hv_version,
  };
}
