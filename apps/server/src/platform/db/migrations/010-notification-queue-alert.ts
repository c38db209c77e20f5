import type { Migration } from '@svc/platform';

/**
 * Queue rows by alert and channel: a recovery is routed behind the announcements of its alert still waiting on
 * a channel, and checked against them again when it is sent. Without this index both read the whole queue,
 * which keeps sent rows for 7 days.
 */
export const m010NotificationQueueAlert: Migration = {
  id: 10,
  name: 'notification-queue-alert',
  async up(db) {
    await db.schema
      .createIndex('notification_queue_alert')
      .on('notification_queue')
      .columns(['org_id', 'alert_id', 'channel', 'channel_id'])
      .execute();
  },
};
