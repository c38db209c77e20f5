import { systemTimers, type Timers } from '../../platform/jobs/index.js';
import type { AreaDeps } from '../area.js';
import type { AuditArea } from '../audit/index.js';
import { createChannels } from './notifications.channels.js';
import { createEmail } from './notifications.email.js';
import type { Notice } from './notifications.model.js';
import { type DeliveryPolicy, defaultPolicy } from './notifications.policy.js';
import { createQueueStore } from './notifications.queue.store.js';
import { createRelay } from './notifications.relay.js';
import { notificationHandlers } from './notifications.routes.js';
import { createNotificationService } from './notifications.service.js';
import { createSink, type NoticeSink } from './notifications.sink.js';
import { createTargetGuard } from './notifications.ssrf.js';
import { createNotificationStore } from './notifications.store.js';
import { createWebhooks } from './notifications.webhooks.js';
import { createDeliveryWorker } from './notifications.worker.js';

export type { Notice, NoticeAlert, NoticeEvent, TemplateData } from './notifications.model.js';
export { formatDuration, templateData } from './notifications.model.js';
export type { DeliveryPolicy } from './notifications.policy.js';
export { renderTemplate } from './notifications.render.js';
export type { NoticeSink } from './notifications.sink.js';

export interface NotificationsOptions {
  /** Timer source of the delivery worker (tests pass FakeTimers bound to their FakeClock). */
  timers?: Timers;
  policy?: Partial<DeliveryPolicy>;
}

/** Channels (webhooks, email, relay), the durable delivery queue and its worker, and the notification API. */
export function createNotificationsArea(deps: AreaDeps, audit: AuditArea, opts: NotificationsOptions = {}) {
  let policy: DeliveryPolicy = { ...defaultPolicy, ...opts.policy };
  const store = createNotificationStore(deps.db);
  const queue = createQueueStore(deps.db);
  const guard = createTargetGuard(deps.config.webhookAllowCidrs);
  const webhooks = createWebhooks(deps, store, queue, audit, guard);
  const email = createEmail(deps, store, audit);
  const relay = createRelay(deps, store, audit, webhooks.http, guard);
  const channels = createChannels(webhooks, email, relay);
  const worker = createDeliveryWorker({
    queue,
    store,
    channels,
    clock: deps.clock,
    timers: opts.timers ?? systemTimers,
    log: deps.log,
    policy: () => policy,
  });
  const sink = createSink({ queue, channels, clock: deps.clock, policy: () => policy, kick: () => worker.kick() });
  const service = createNotificationService(deps, { queue, store, channels, worker, sink });
  return {
    handlers: notificationHandlers({ webhooks, email, relay, service }),
    webhooks,
    email,
    relay,
    sink: sink as NoticeSink,
    worker,
    service,
    /** The alert engine's cooldown/grouping settings arrive here (the lead wires them). */
    setPolicy(patch: Partial<DeliveryPolicy>): void {
      policy = { ...policy, ...patch };
    },
    /** Resumes deliveries a crash interrupted and starts the worker. */
    start: () => worker.start(),
    async stop(): Promise<void> {
      await worker.stop();
      await webhooks.close();
    },
  };
}

export type NotificationsArea = ReturnType<typeof createNotificationsArea>;

/** The hand-off for the alert engine: `deliver(notices)` queues every notice for every enabled channel. */
export function createNoticeSink(area: NotificationsArea): NoticeSink {
  return { deliver: (notices: readonly Notice[]) => area.sink.deliver(notices) };
}
