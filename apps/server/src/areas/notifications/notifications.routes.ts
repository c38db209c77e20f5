import { notificationRoutes as r } from '@svc/contract';
import { badRequest, type Handlers } from '@svc/platform';
import type { Caller } from '../../platform/http/principal.js';
import { actorOf } from '../audit/index.js';
import type { Email } from './notifications.email.js';
import { emailProviders } from './notifications.email.js';
import type { Relay } from './notifications.relay.js';
import type { NotificationService } from './notifications.service.js';
import { SsrfError } from './notifications.ssrf.js';
import type { Webhooks } from './notifications.webhooks.js';
import { webhookKindImpls } from './webhook.kinds.js';

export interface NotificationParts {
  webhooks: Webhooks;
  email: Email;
  relay: Relay;
  service: NotificationService;
}

const templates = () =>
  Object.entries(webhookKindImpls).map(([service, k]) => ({
    service: service as keyof typeof webhookKindImpls,
    label: k.label,
    urlPattern: k.urlPattern,
    method: 'POST',
    headers: { 'Content-Type': k.contentType },
    description: k.description,
    instructions: k.instructions,
    payloadTemplate: k.example,
    ...(k.mentionPlaceholder ? { mentionPlaceholder: k.mentionPlaceholder } : {}),
  }));

/** A refused relay server URL is the caller's mistake: 400, like a refused webhook URL. */
const ssrfAs400 = <T>(p: Promise<T>): Promise<T> =>
  p.catch((err: unknown) => {
    throw err instanceof SsrfError ? badRequest(err.message, { field: 'serverUrl' }) : err;
  });

export function notificationHandlers(p: NotificationParts): Handlers<typeof r, Caller> {
  return {
    listWebhooks: () => p.webhooks.list(),
    createWebhook: (ctx, { body }) => p.webhooks.create(actorOf(ctx, r.createWebhook.path), body),
    updateWebhook: (ctx, { params, body }) => p.webhooks.update(actorOf(ctx, r.updateWebhook.path), params.id, body),
    deleteWebhook: async (ctx, { params }) => {
      await p.webhooks.remove(actorOf(ctx, r.deleteWebhook.path), params.id);
      return { status: 'success' as const };
    },
    testWebhook: async (_ctx, { body }) => {
      const out = await p.webhooks.test(body);
      return {
        success: out.ok,
        status: out.status,
        response: out.response,
        error: out.error,
        eventId: out.eventId,
        durationMs: out.durationMs,
      };
    },
    listWebhookTemplates: () => templates(),
    webhookHistory: (_ctx, { query }) => p.service.history(query.limit),
    getEmailConfig: () => p.email.get(),
    setEmailConfig: (ctx, { body }) => p.email.set(actorOf(ctx, r.setEmailConfig.path), body),
    listEmailProviders: () => emailProviders,
    getRelayConfig: () => p.relay.get(),
    setRelayConfig: (ctx, { body }) => ssrfAs400(p.relay.set(actorOf(ctx, r.setRelayConfig.path), body)),
    testNotifications: () => p.service.testAll(),
    listDeadLetters: (_ctx, { query }) => p.service.deadLetters(query.limit),
    retryDeadLetter: (_ctx, { body }) => p.service.retryDeadLetter(body.id),
    deleteDeadLetter: (_ctx, { body }) => p.service.deleteDeadLetter(body.id),
    queueStats: () => p.service.stats(),
    notificationHealth: () => p.service.health(),
  };
}
