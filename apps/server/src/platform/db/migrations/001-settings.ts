import type { Migration } from '@svc/platform';

export const m001Settings: Migration = {
  id: 1,
  name: 'settings',
  async up(db) {
    await db.schema
      .createTable('settings')
      .addColumn('org_id', 'text', (c) => c.notNull())
      .addColumn('key', 'text', (c) => c.notNull())
      .addColumn('value', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('settings_pk', ['org_id', 'key'])
      .execute();
  },
};
