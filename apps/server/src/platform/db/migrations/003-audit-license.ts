import type { Migration } from '@svc/platform';

/** The signed audit log and the stored licence key (sealed with the instance key). */
export const m003AuditLicense: Migration = {
  id: 3,
  name: 'audit-license',
  async up(db) {
    await db.schema
      .createTable('audit_events')
      .addColumn('id', 'text', (c) => c.primaryKey().notNull())
      .addColumn('org_id', 'text', (c) => c.notNull())
      .addColumn('timestamp', 'bigint', (c) => c.notNull())
      .addColumn('event', 'text', (c) => c.notNull())
      .addColumn('username', 'text', (c) => c.notNull())
      .addColumn('ip', 'text', (c) => c.notNull())
      .addColumn('path', 'text', (c) => c.notNull())
      .addColumn('success', 'integer', (c) => c.notNull())
      .addColumn('details', 'text', (c) => c.notNull())
      .addColumn('signature', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('audit_events_time').on('audit_events').columns(['org_id', 'timestamp']).execute();
    await db.schema
      .createTable('license_keys')
      .addColumn('org_id', 'text', (c) => c.primaryKey().notNull())
      .addColumn('sealed_key', 'text', (c) => c.notNull())
      .addColumn('activated_at', 'bigint', (c) => c.notNull())
      .execute();
  },
};
