import type { Migration } from '@svc/platform';

/**
 * Alert engine: per-alert state (active alerts, and idle keys still inside a flapping window), one history
 * row per occurrence, incident timelines, and the notice outbox the notification side drains. Notice rows
 * are written in the same transaction as the state change they announce, so a crash never loses one.
 */
export const m008Alerts: Migration = {
  id: 8,
  name: 'alerts',
  async up(db, dialect) {
    await db.schema
      .createTable('alert_states')
      .addColumn('org_id', 'text', (c) => c.notNull())
      .addColumn('id', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('start_time', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addColumn('data', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('alert_states_pk', ['org_id', 'id'])
      .execute();
    await db.schema
      .createTable('alert_history')
      .addColumn('org_id', 'text', (c) => c.notNull())
      .addColumn('alert_id', 'text', (c) => c.notNull())
      .addColumn('start_time', 'bigint', (c) => c.notNull())
      .addColumn('level', 'text', (c) => c.notNull())
      .addColumn('resource_id', 'text', (c) => c.notNull())
      .addColumn('resolved_time', 'bigint')
      .addColumn('data', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('alert_history_pk', ['org_id', 'alert_id', 'start_time'])
      .execute();
    await db.schema.createIndex('alert_history_time').on('alert_history').columns(['org_id', 'start_time']).execute();
    await db.schema
      .createTable('alert_incidents')
      .addColumn('org_id', 'text', (c) => c.notNull())
      .addColumn('id', 'text', (c) => c.notNull())
      .addColumn('alert_id', 'text', (c) => c.notNull())
      .addColumn('start_time', 'bigint', (c) => c.notNull())
      .addColumn('resource_id', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('data', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('alert_incidents_pk', ['org_id', 'id'])
      .execute();
    await db.schema
      .createIndex('alert_incidents_alert')
      .on('alert_incidents')
      .columns(['org_id', 'alert_id', 'start_time'])
      .execute();
    await db.schema
      .createTable('alert_notices')
      .addColumn('seq', dialect === 'postgres' ? 'bigserial' : 'integer', (c) =>
        dialect === 'postgres' ? c.primaryKey().notNull() : c.primaryKey().autoIncrement().notNull(),
      )
      .addColumn('org_id', 'text', (c) => c.notNull())
      .addColumn('alert_id', 'text', (c) => c.notNull())
      .addColumn('event', 'text', (c) => c.notNull())
      .addColumn('at', 'bigint', (c) => c.notNull())
      .addColumn('due_at', 'bigint', (c) => c.notNull())
      .addColumn('handed_at', 'bigint')
      .addColumn('alert', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('alert_notices_pending').on('alert_notices').columns(['handed_at', 'due_at']).execute();
  },
};
