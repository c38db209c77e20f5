import type { Migration } from '@svc/platform';
import { sql } from 'kysely';
import { statuses } from '../ingest/ingest.status.js';

/**
 * `installs` holds one row per installation (random_id). `install_counts` holds running totals per
 * dimension and status at three grains (UTC day, month, all time), kept in step with `installs` inside the
 * same transaction, so any date range reads edge days + whole months instead of millions of rows (migration 2
 * reshapes it into `install_totals`). `orphan_updates` counts status updates for ids never reported.
 */
const m001Installs: Migration = {
  id: 1,
  name: 'installs',
  async up(db) {
    await db.schema
      .createTable('installs')
      .addColumn('random_id', 'text', (c) => c.primaryKey())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addColumn('day', 'text', (c) => c.notNull())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('nsapp', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('error', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('ct_type', 'integer')
      .addColumn('disk_size', 'double precision')
      .addColumn('core_count', 'integer')
      .addColumn('ram_size', 'integer')
      .addColumn('os_type', 'text', (c) => c.notNull())
      .addColumn('os_version', 'text', (c) => c.notNull())
      .addColumn('disableip6', 'text', (c) => c.notNull())
      .addColumn('method', 'text', (c) => c.notNull())
      .addColumn('hv_version', 'text', (c) => c.notNull())
      .execute();
    // The record list pages newest first, optionally by app; the reaper finds old in-progress rows. Type and
    // OS are too coarse to be worth an index on every write: those filters walk the time index.
    for (const [name, cols] of [
      ['installs_created', ['created_at']],
      ['installs_status_created', ['status', 'created_at']],
      ['installs_nsapp_created', ['nsapp', 'created_at']],
    ] as const) {
      await db.schema
        .createIndex(name)
        .on('installs')
        .columns([...cols])
        .execute();
    }
    await db.schema
      .createTable('install_counts')
      .addColumn('dim', 'text', (c) => c.notNull())
      .addColumn('grain', 'text', (c) => c.notNull())
      .addColumn('day', 'text', (c) => c.notNull())
      .addColumn('k1', 'text', (c) => c.notNull())
      .addColumn('k2', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('n', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('install_counts_pk', ['dim', 'grain', 'day', 'k1', 'k2', 'status'])
      .execute();
    await db.schema
      .createTable('orphan_updates')
      .addColumn('day', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('n', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('orphan_updates_pk', ['day', 'status'])
      .execute();
  },
};

/** One counter column per status, named `n_<status>`: the set of statuses is closed (see ingest.status.ts). */
export const totalColumns = statuses.map((s) => `n_${s}`);

/**
 * Running totals as one row per key with a counter column per status instead of one row per key and status:
 * about 7x fewer rows for every statistic to read, and a status change updates one row instead of two.
 * Existing totals are carried over, then `install_counts` is dropped.
 */
const m002InstallTotals: Migration = {
  id: 2,
  name: 'install-totals',
  async up(db, dialect) {
    let create = db.schema
      .createTable('install_totals')
      .addColumn('dim', 'text', (c) => c.notNull())
      .addColumn('grain', 'text', (c) => c.notNull())
      .addColumn('day', 'text', (c) => c.notNull())
      .addColumn('k1', 'text', (c) => c.notNull())
      .addColumn('k2', 'text', (c) => c.notNull());
    for (const col of totalColumns) create = create.addColumn(col, 'bigint', (c) => c.notNull().defaultTo(0));
    create = create.addPrimaryKeyConstraint('install_totals_pk', ['dim', 'grain', 'day', 'k1', 'k2']);
    // SQLite: rows stored in primary-key order, so a statistic reads one contiguous range instead of an index
    // plus a table lookup per row (a table option only SQLite has).
    if (dialect === 'sqlite') create = create.modifyEnd(sql`without rowid`);
    await create.execute();
    // Statuses come from a fixed list, never from input, so they may be spelled into the statement.
    const sums = statuses.map((s) => `sum(case when status = '${s}' then n else 0 end)`).join(', ');
    await sql
      .raw(
        `insert into install_totals (dim, grain, day, k1, k2, ${totalColumns.join(', ')})
         select dim, grain, day, k1, k2, ${sums} from install_counts group by dim, grain, day, k1, k2`,
      )
      .execute(db);
    await db.schema.dropTable('install_counts').execute();
  },
};

/**
 * The number of the last ingest unit committed (see ingest.journal.ts): the SQLite writer sets it in the same
 * transaction as the unit's writes, so after a crash the journal's frames of later units, and only those, are
 * applied again. One row. PostgreSQL commits every batch itself and leaves it at 0.
 */
const m003JournalState: Migration = {
  id: 3,
  name: 'journal-state',
  async up(db) {
    await sql`create table journal_state (id integer primary key, unit bigint not null)`.execute(db);
    await sql`insert into journal_state (id, unit) values (1, 0)`.execute(db);
  },
};

/** In order; append only. */
export const migrations: readonly Migration[] = [m001Installs, m002InstallTotals, m003JournalState];
