import type { Migration } from '@svc/platform';

/** Manual merge overrides of unified resources, and operator metadata (notes, tags, links) per resource. */
export const m007Resources: Migration = {
  id: 7,
  name: 'resources',
  async up(db) {
    await db.schema
      .createTable('resource_overrides')
      .addColumn('org_id', 'text', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('a', 'text', (c) => c.notNull())
      .addColumn('b', 'text', (c) => c.notNull())
      .addColumn('reason', 'text', (c) => c.notNull())
      .addColumn('created_by', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('resource_overrides_pk', ['org_id', 'kind', 'a', 'b'])
      .execute();
    await db.schema
      .createTable('resource_metadata')
      .addColumn('org_id', 'text', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('item_id', 'text', (c) => c.notNull())
      .addColumn('notes', 'text', (c) => c.notNull())
      .addColumn('tags', 'text', (c) => c.notNull())
      .addColumn('custom_urls', 'text', (c) => c.notNull())
      .addColumn('updated_by', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('resource_metadata_pk', ['org_id', 'kind', 'item_id'])
      .execute();
  },
};
