import type { Kysely, Selectable } from 'kysely';
import { type Database, type Db, DEFAULT_ORG } from '../../platform/db/index.js';

export type WebhookRow = Selectable<Database['notification_webhooks']>;
export type HealthRow = Selectable<Database['notification_health']>;

/** Webhooks, email and relay settings, and per-channel health. */
export function createNotificationStore(handle: Db) {
  const db = handle.db;
  const org = DEFAULT_ORG;
  return {
    db,
    transaction: <T>(fn: (trx: Kysely<Database>) => Promise<T>) => db.transaction().execute(fn),

    listWebhooks: () =>
      db.selectFrom('notification_webhooks').selectAll().where('org_id', '=', org).orderBy('created_at').execute(),
    getWebhook: (id: string) =>
      db
        .selectFrom('notification_webhooks')
        .selectAll()
        .where('org_id', '=', org)
        .where('id', '=', id)
        .executeTakeFirst(),
    insertWebhook: (trx: Kysely<Database>, row: Omit<WebhookRow, 'org_id'>) =>
      trx
        .insertInto('notification_webhooks')
        .values({ ...row, org_id: org })
        .execute(),
    updateWebhook: (trx: Kysely<Database>, row: Omit<WebhookRow, 'org_id' | 'created_at'>) =>
      trx.updateTable('notification_webhooks').set(row).where('org_id', '=', org).where('id', '=', row.id).execute(),
    async deleteWebhook(trx: Kysely<Database>, id: string): Promise<boolean> {
      const r = await trx
        .deleteFrom('notification_webhooks')
        .where('org_id', '=', org)
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    },

    async getConfig(key: string): Promise<unknown> {
      const row = await db
        .selectFrom('notification_config')
        .select('value')
        .where('org_id', '=', org)
        .where('key', '=', key)
        .executeTakeFirst();
      return row ? JSON.parse(row.value) : undefined;
    },
    setConfig: (trx: Kysely<Database>, key: string, value: unknown, now: number) =>
      trx
        .insertInto('notification_config')
        .values({ org_id: org, key, value: JSON.stringify(value), updated_at: now })
        .onConflict((oc) =>
          oc.columns(['org_id', 'key']).doUpdateSet({ value: JSON.stringify(value), updated_at: now }),
        )
        .execute(),

    listHealth: () => db.selectFrom('notification_health').selectAll().where('org_id', '=', org).execute(),
    /** Folds attempt outcomes into the per-channel health rows (consecutive failures reset on success). */
    async recordHealth(updates: ReadonlyMap<string, { ok: boolean; at: number; error: string }[]>): Promise<void> {
      if (updates.size === 0) return;
      await db.transaction().execute(async (trx) => {
        for (const [key, events] of updates) {
          const [channel = '', channelId = ''] = key.split('\u0000');
          const cur = await trx
            .selectFrom('notification_health')
            .selectAll()
            .where('org_id', '=', org)
            .where('channel', '=', channel)
            .where('channel_id', '=', channelId)
            .executeTakeFirst();
          const next = {
            ...(cur ?? {
              org_id: org,
              channel,
              channel_id: channelId,
              last_success_at: null,
              last_error_at: null,
              last_error: null,
              consecutive_failures: 0,
            }),
          };
          for (const e of events) {
            if (e.ok) Object.assign(next, { last_success_at: e.at, consecutive_failures: 0 });
            else
              Object.assign(next, {
                last_error_at: e.at,
                last_error: e.error,
                consecutive_failures: next.consecutive_failures + 1,
              });
          }
          if (cur) {
            await trx
              .updateTable('notification_health')
              .set(next)
              .where('org_id', '=', org)
              .where('channel', '=', channel)
              .where('channel_id', '=', channelId)
              .execute();
          } else await trx.insertInto('notification_health').values(next).execute();
        }
      });
    },
  };
}

export type NotificationStore = ReturnType<typeof createNotificationStore>;
