import type { InstallReport, StatusUpdate } from '../contract.schemas.js';
import { totalColumns } from '../db/db.migrations.js';
import type { SqlTx } from '../db/index.js';
import { countsAsFailure, decideTransition, inProgressStatuses, statuses } from './ingest.status.js';

/** The columns that decide which running totals a record counts in. */
export interface CountedFields {
  day: string;
  type: string;
  nsapp: string;
  os_type: string;
  os_version: string;
  status: string;
  error: string;
}

/** Error texts are grouped by their first characters: enough to tell failures apart, small enough to index. */
export const ERROR_KEY_MAX = 300;

const DAY_MS = 86_400_000;
let cachedDayStart = Number.NaN;
let cachedDay = '';

export function utcDay(ms: number): string {
  // Every write asks for today; formatting a date costs more than the insert's own bookkeeping.
  const start = ms - (((ms % DAY_MS) + DAY_MS) % DAY_MS);
  if (start !== cachedDayStart) {
    cachedDayStart = start;
    cachedDay = new Date(start).toISOString().slice(0, 10);
  }
  return cachedDay;
}

const COLUMN = new Map<string, number>(statuses.map((st, i) => [st, i]));
const TOTALS = totalColumns.join(', ');
const ROW = `(?, ?, ?, ?, ?, ${totalColumns.map(() => '?').join(', ')})`;
const ADD = totalColumns.map((c) => `${c} = install_totals.${c} + excluded.${c}`).join(', ');
const SEP = '\u0000';

/**
 * Changes to `install_totals` collected during one transaction and written once at its end. Records are
 * first summed per distinct set of counted fields (a batch is mostly the same few apps on the same day),
 * and only those sums are spread over the dimension keys when the batch is flushed.
 */
export class CountDeltas {
  private readonly records = new Map<string, { r: CountedFields; col: number; n: number }>();

  add(r: CountedFields, sign: 1 | -1): void {
    const col = COLUMN.get(r.status);
    // Statuses are validated on the way in; a stored value outside the list would be a bug, not input.
    if (col === undefined) throw new Error(`unknown status in a running total: ${r.status}`);
    const id =
      r.day + SEP + r.type + SEP + r.nsapp + SEP + r.os_type + SEP + r.os_version + SEP + r.status + SEP + r.error;
    const cur = this.records.get(id);
    if (cur) cur.n += sign;
    else this.records.set(id, { r, col, n: sign });
  }

  /** Takes over `other`'s changes (a batch's, once its savepoint is released), leaving it empty. */
  absorb(other: CountDeltas): void {
    for (const [id, d] of other.records) {
      const cur = this.records.get(id);
      if (cur) cur.n += d.n;
      else this.records.set(id, d);
    }
    other.records.clear();
  }

  get empty(): boolean {
    return this.records.size === 0;
  }

  async flush(tx: SqlTx): Promise<void> {
    const totals = new Map<string, { key: string[]; n: number[] }>();
    for (const { r, col, n } of this.records.values()) if (n !== 0) spread(totals, r, col, n);
    this.records.clear();
    const rows = [...totals.values()].filter((t) => t.n.some((n) => n !== 0));
    // Keys are unique within one statement, which PostgreSQL's ON CONFLICT DO UPDATE requires.
    for (let i = 0; i < rows.length; i += 50) {
      const chunk = rows.slice(i, i + 50);
      await tx.run(
        `insert into install_totals (dim, grain, day, k1, k2, ${TOTALS})
         values ${chunk.map(() => ROW).join(', ')}
         on conflict (dim, grain, day, k1, k2) do update set ${ADD}`,
        chunk.flatMap((t) => [...t.key, ...t.n]),
      );
    }
  }
}

/** Adds `n` records like `r` to every running total they count in. */
function spread(totals: Map<string, { key: string[]; n: number[] }>, r: CountedFields, col: number, n: number): void {
  const keys: [string, string, string][] = [
    ['all', '', ''],
    ['nsapp', r.nsapp, ''],
    ['type', r.type, ''],
    ['os', r.os_type, r.os_version],
  ];
  if (countsAsFailure(r.status) && r.error !== '') {
    const text = r.error.slice(0, ERROR_KEY_MAX);
    keys.push(['error', text, ''], ['error_app', r.nsapp, text]);
  }
  const periods: [string, string][] = [
    ['d', r.day],
    ['m', r.day.slice(0, 7)],
    ['t', ''],
  ];
  for (const [dim, k1, k2] of keys) {
    for (const [grain, period] of periods) {
      const key = [dim, grain, period, k1, k2];
      const id = key.join(SEP);
      let cur = totals.get(id);
      if (!cur) {
        cur = { key, n: totalColumns.map(() => 0) };
        totals.set(id, cur);
      }
      cur.n[col]! += n;
    }
  }
}

export type ReportResult = 'created' | 'duplicate';

export async function insertReport(
  tx: SqlTx,
  deltas: CountDeltas,
  r: InstallReport,
  now: number,
): Promise<ReportResult> {
  const day = utcDay(now);
  const changed = await tx.run(
    `insert into installs (random_id, created_at, updated_at, day, type, nsapp, status, error, ct_type, disk_size,
       core_count, ram_size, os_type, os_version, disableip6, method, hv_version)
     values (?, ?, ?, ?, ?, ?, ?, '', ?, ?, ?, ?, ?, ?, ?, ?, ?)
     on conflict (random_id) do nothing`,
    [
      r.random_id,
      now,
      now,
      day,
      r.type,
      r.nsapp,
      r.status,
      r.ct_type,
      r.disk_size,
      r.core_count,
      r.ram_size,
      r.os_type,
      r.os_version,
      r.disableip6,
      r.method,
      r.hv_version,
    ],
  );
  if (changed === 0) return 'duplicate';
  deltas.add(
    { day, type: r.type, nsapp: r.nsapp, os_type: r.os_type, os_version: r.os_version, status: r.status, error: '' },
    1,
  );
  return 'created';
}

export type UpdateResult =
  | { kind: 'updated'; from: string; status: string }
  | { kind: 'unchanged'; status: string }
  | { kind: 'conflict'; status: string }
  | { kind: 'not_found' };

const COUNTED = 'status, error, day, type, nsapp, os_type, os_version';

export async function applyUpdate(tx: SqlTx, deltas: CountDeltas, u: StatusUpdate, now: number): Promise<UpdateResult> {
  const [cur] = await tx.all<CountedFields>(`select ${COUNTED} from installs where random_id = ?`, [u.random_id]);
  if (!cur) {
    await tx.run(
      `insert into orphan_updates (day, status, n) values (?, ?, 1)
       on conflict (day, status) do update set n = orphan_updates.n + 1`,
      [utcDay(now), u.status],
    );
    return { kind: 'not_found' };
  }
  const t = decideTransition(cur.status, u.status);
  if (t === 'same') return { kind: 'unchanged', status: cur.status };
  if (t === 'conflict') return { kind: 'conflict', status: cur.status };
  await tx.run('update installs set status = ?, error = ?, updated_at = ? where random_id = ?', [
    u.status,
    u.error,
    now,
    u.random_id,
  ]);
  deltas.add(cur, -1);
  deltas.add({ ...cur, status: u.status, error: u.error }, 1);
  return { kind: 'updated', from: cur.status, status: u.status };
}

type Row = CountedFields & { random_id: string };

/** Marks up to `limit` records still in progress since before `cutoff` as unknown; returns how many. */
export async function reapStale(tx: SqlTx, deltas: CountDeltas, cutoff: number, now: number, limit: number) {
  const marks = inProgressStatuses.map(() => '?').join(', ');
  const rows = await tx.all<Row>(
    `select random_id, ${COUNTED} from installs where status in (${marks}) and created_at < ? order by created_at limit ?`,
    [...inProgressStatuses, cutoff, limit],
  );
  for (const r of rows) {
    await tx.run(`update installs set status = 'unknown', updated_at = ? where random_id = ?`, [now, r.random_id]);
    deltas.add(r, -1);
    deltas.add({ ...r, status: 'unknown' }, 1);
  }
  return rows.length;
}

/** Deletes up to `limit` records created before `cutoff`, taking them out of the totals too. */
export async function purgeOld(tx: SqlTx, deltas: CountDeltas, cutoff: number, limit: number) {
  const rows = await tx.all<Row>(
    `select random_id, ${COUNTED} from installs where created_at < ? order by created_at limit ?`,
    [cutoff, limit],
  );
  for (const r of rows) {
    await tx.run('delete from installs where random_id = ?', [r.random_id]);
    deltas.add(r, -1);
  }
  if (rows.length < limit) {
    const day = utcDay(cutoff);
    const empty = totalColumns.map((c) => `${c} = 0`).join(' and ');
    await tx.run(`delete from install_totals where grain <> 't' and day < ? and ${empty}`, [day]);
    await tx.run('delete from orphan_updates where day < ?', [day]);
  }
  return rows.length;
}
