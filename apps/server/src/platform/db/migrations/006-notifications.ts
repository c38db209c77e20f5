import type { Migration } from '@svc/platform';

/** Notification channels, the durable delivery queue, the attempt history and per-channel health. */
export const m006Notifications: Migration = {
  id: 6,
  name: 'notifications',
  async up(db) {
    await db.schema
      .createTable('notification_webhooks')
      .addColumn('id', 'text', (c) => c.primaryKey().notNull())
      .addColumn('org_id', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('url', 'text', (c) => c.notNull())
      .addColumn('method', 'text', (c) => c.notNull())
      .addColumn('service', 'text', (c) => c.notNull())
      .addColumn('enabled', 'integer', (c) => c.notNull())
      .addColumn('template', 'text', (c) => c.notNull())
      .addColumn('mention', 'text', (c) => c.notNull())
      .addColumn('sealed_secrets', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('notification_config')
      .addColumn('org_id', 'text', (c) => c.notNull())
      .addColumn('key', 'text', (c) => c.notNull())
      .addColumn('value', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('notification_config_pk', ['org_id', 'key'])
      .execute();
    await db.schema
      .createTable('notification_queue')
      .addColumn('id', 'text', (c) => c.primaryKey().notNull())
      .addColumn('org_id', 'text', (c) => c.notNull())
      .addColumn('event_id', 'text', (c) => c.notNull())
      .addColumn('event', 'text', (c) => c.notNull())
      .addColumn('alert_id', 'text', (c) => c.notNull())
      .addColumn('channel', 'text', (c) => c.notNull())
      .addColumn('channel_id', 'text', (c) => c.notNull())
      .addColumn('notice', 'text', (c) => c.notNull())
      .addColumn('group_id', 'text')
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull())
      .addColumn('max_attempts', 'integer', (c) => c.notNull())
      .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
      .addColumn('last_error', 'text', (c) => c.notNull())
      .addColumn('last_status_code', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('notification_queue_due')
      .on('notification_queue')
      .columns(['org_id', 'status', 'next_attempt_at'])
      .execute();
    await db.schema
      .createTable('notification_attempts')
      .addColumn('id', 'text', (c) => c.primaryKey().notNull())
      .addColumn('org_id', 'text', (c) => c.notNull())
      .addColumn('at', 'bigint', (c) => c.notNull())
      .addColumn('channel', 'text', (c) => c.notNull())
      .addColumn('channel_id', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('event_id', 'text', (c) => c.notNull())
      .addColumn('event', 'text', (c) => c.notNull())
      .addColumn('alert_id', 'text', (c) => c.notNull())
      .addColumn('attempt', 'integer', (c) => c.notNull())
      .addColumn('status_code', 'integer', (c) => c.notNull())
      .addColumn('duration_ms', 'integer', (c) => c.notNull())
      .addColumn('success', 'integer', (c) => c.notNull())
      .addColumn('error', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('notification_attempts_time')
      .on('notification_attempts')
      .columns(['org_id', 'at'])
      .execute();
    await db.schema
      .createTable('notification_health')
      .addColumn('org_id', 'text', (c) => c.notNull())
      .addColumn('channel', 'text', (c) => c.notNull())
      .addColumn('channel_id', 'text', (c) => c.notNull())
      .addColumn('last_success_at', 'bigint')
      .addColumn('last_error_at', 'bigint')
      .addColumn('last_error', 'text')
      .addColumn('consecutive_failures', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('notification_health_pk', ['org_id', 'channel', 'channel_id'])
      .execute();
  },
};
