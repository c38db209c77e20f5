import type { Migration } from '@svc/platform';

/** Configured hv/bak/mail instances (secrets sealed) and one-time setup tokens for the node setup script. */
export const m005Nodes: Migration = {
  id: 5,
  name: 'nodes',
  async up(db) {
    await db.schema
      .createTable('nodes')
      .addColumn('org_id', 'text', (c) => c.notNull())
      .addColumn('id', 'text', (c) => c.notNull())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('config', 'text', (c) => c.notNull())
      .addColumn('secrets', 'text', (c) => c.notNull())
      .addColumn('source', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('nodes_pk', ['org_id', 'id'])
      .addUniqueConstraint('nodes_name_unique', ['org_id', 'name'])
      .execute();
    await db.schema
      .createTable('setup_tokens')
      .addColumn('org_id', 'text', (c) => c.notNull())
      .addColumn('token_hash', 'text', (c) => c.notNull().primaryKey())
      .addColumn('node_type', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('used_at', 'bigint')
      .addColumn('created_by', 'text', (c) => c.notNull())
      .execute();
  },
};
