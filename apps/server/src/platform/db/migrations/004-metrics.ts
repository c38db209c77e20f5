import type { Migration } from '@svc/platform';
import { sql } from 'kysely';

/**
 * The metrics store: a series dictionary (org, resource, metric -> integer id) and one table per tier keyed
 * time-first by (ts, series_id), ts in Unix seconds. Time-first keys make a poll's inserts append to the end
 * of the B-tree (a series-first key rewrites one page per series per poll) and retention a prefix delete.
 * On SQLite the sample tables are WITHOUT ROWID, so the primary key is the row storage.
 */
export const m004Metrics: Migration = {
  id: 4,
  name: 'metrics',
  async up(db, dialect) {
    const compact = dialect === 'sqlite' ? sql`without rowid` : sql``;
    await db.schema
      .createTable('metric_series')
      .addColumn('id', dialect === 'postgres' ? 'serial' : 'integer', (c) =>
        dialect === 'postgres' ? c.primaryKey().notNull() : c.primaryKey().autoIncrement().notNull(),
      )
      .addColumn('org_id', 'text', (c) => c.notNull())
      .addColumn('resource_type', 'text', (c) => c.notNull())
      .addColumn('resource_id', 'text', (c) => c.notNull())
      .addColumn('metric', 'text', (c) => c.notNull())
      .addUniqueConstraint('metric_series_key', ['org_id', 'resource_type', 'resource_id', 'metric'])
      .execute();
    await db.schema
      .createTable('metric_raw')
      .addColumn('series_id', 'integer', (c) => c.notNull())
      .addColumn('ts', 'bigint', (c) => c.notNull())
      .addColumn('value', 'double precision', (c) => c.notNull())
      .addPrimaryKeyConstraint('metric_raw_pk', ['ts', 'series_id'])
      .modifyEnd(compact)
      .execute();
    for (const tier of ['minute', 'hour', 'day']) {
      await db.schema
        .createTable(`metric_${tier}`)
        .addColumn('series_id', 'integer', (c) => c.notNull())
        .addColumn('ts', 'bigint', (c) => c.notNull())
        .addColumn('avg', 'double precision', (c) => c.notNull())
        .addColumn('min', 'double precision', (c) => c.notNull())
        .addColumn('max', 'double precision', (c) => c.notNull())
        .addColumn('n', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint(`metric_${tier}_pk`, ['ts', 'series_id'])
        .modifyEnd(compact)
        .execute();
    }
    // Rollup watermarks: buckets of a tier before `watermark` (Unix s) are complete and never re-read.
    await db.schema
      .createTable('metric_rollup_state')
      .addColumn('tier', 'text', (c) => c.primaryKey().notNull())
      .addColumn('watermark', 'bigint', (c) => c.notNull())
      .execute();
  },
};
