import type { Migration } from '@svc/platform';

/** Users, sessions, API tokens, login failures and recovery tokens. Secrets appear only as hashes. */
export const m002Access: Migration = {
  id: 2,
  name: 'access',
  async up(db) {
    await db.schema
      .createTable('users')
      .addColumn('username', 'text', (c) => c.primaryKey().notNull())
      .addColumn('org_id', 'text', (c) => c.notNull())
      .addColumn('password_hash', 'text', (c) => c.notNull())
      .addColumn('is_admin', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('sessions')
      .addColumn('id', 'text', (c) => c.primaryKey().notNull())
      .addColumn('token_hash', 'text', (c) => c.notNull().unique())
      .addColumn('csrf_hash', 'text', (c) => c.notNull())
      .addColumn('org_id', 'text', (c) => c.notNull())
      .addColumn('username', 'text', (c) => c.notNull())
      .addColumn('is_admin', 'integer', (c) => c.notNull())
      .addColumn('auth_method', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('duration_ms', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('sessions_username').on('sessions').column('username').execute();
    await db.schema
      .createTable('api_tokens')
      .addColumn('id', 'text', (c) => c.primaryKey().notNull())
      .addColumn('org_id', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('token_hash', 'text', (c) => c.notNull().unique())
      .addColumn('prefix', 'text', (c) => c.notNull())
      .addColumn('suffix', 'text', (c) => c.notNull())
      .addColumn('scopes', 'text', (c) => c.notNull())
      .addColumn('is_primary', 'integer', (c) => c.notNull())
      .addColumn('created_by', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('last_used_at', 'bigint')
      .execute();
    await db.schema
      .createTable('login_failures')
      .addColumn('identifier', 'text', (c) => c.primaryKey().notNull())
      .addColumn('failures', 'integer', (c) => c.notNull())
      .addColumn('locked_until', 'bigint')
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('recovery_tokens')
      .addColumn('token_hash', 'text', (c) => c.primaryKey().notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .execute();
  },
};
