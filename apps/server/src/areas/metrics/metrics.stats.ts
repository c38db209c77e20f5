import type { MetricsTier } from '@svc/contract';
import { sql } from 'kysely';
import type { Db } from '../../platform/db/index.js';
import { tableOf, tiers } from './metrics.tiers.js';

export interface TierCounts {
  tier: MetricsTier;
  rows: number;
  /** Unix seconds. */
  oldest: number | null;
  newest: number | null;
}

const TABLES = ['metric_series', 'metric_raw', 'metric_minute', 'metric_hour', 'metric_day', 'metric_rollup_state'];

const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

/** Row counts, time span and bytes on disk of the metrics tables. Each count is one pass over its table. */
export function createStatsReader(handle: Db) {
  const { db } = handle;

  async function diskBytes(): Promise<number> {
    if (handle.dialect === 'postgres') {
      const r = await sql<{ bytes: string | number | null }>`select sum(pg_total_relation_size(c.oid)) as bytes
        from pg_class c join pg_namespace ns on ns.oid = c.relnamespace
        where ns.nspname = current_schema() and c.relkind = 'r' and c.relname in (${sql.join(TABLES)})`.execute(db);
      return Number(r.rows[0]?.bytes ?? 0);
    }
    const lite = handle.sqlite!;
    try {
      // dbstat counts the pages of each table and index; WITHOUT ROWID tables have no separate key index.
      const names = TABLES.map(() => '?').join(', ');
      const row = lite
        .prepare(
          `select sum(pgsize) as bytes from dbstat where name in (${names}) or name like 'sqlite_autoindex_metric%'`,
        )
        .get(...TABLES) as { bytes: number | null };
      return row.bytes ?? 0;
    } catch {
      // Builds without the dbstat table: the whole file is an upper bound.
      return Number(lite.pragma('page_count', { simple: true })) * Number(lite.pragma('page_size', { simple: true }));
    }
  }

  return {
    async tierCounts(): Promise<TierCounts[]> {
      const out: TierCounts[] = [];
      for (const { tier } of tiers) {
        const r = await db
          .selectFrom(tableOf(tier))
          .select((eb) => [eb.fn.countAll().as('rows'), eb.fn.min('ts').as('oldest'), eb.fn.max('ts').as('newest')])
          .executeTakeFirst();
        out.push({ tier, rows: Number(r?.rows ?? 0), oldest: num(r?.oldest), newest: num(r?.newest) });
      }
      return out;
    },

    async seriesCount(): Promise<number> {
      const r = await db
        .selectFrom('metric_series')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirst();
      return Number(r?.n ?? 0);
    },

    diskBytes,
  };
}
