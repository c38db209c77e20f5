import type { Migration } from '@svc/platform';

/**
 * `installs` holds one row per installation (random_id). `install_counts` holds running totals per
 * dimension and status at three grains (UTC day, month, all time), kept in step with `installs` inside the
 * same transaction, so any date range reads edge days + whole months instead of millions of rows. `orphan_updates` counts status updates for ids never reported.
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

/** In order; append only. */
export const migrations: readonly Migration[] = [m001Installs];
