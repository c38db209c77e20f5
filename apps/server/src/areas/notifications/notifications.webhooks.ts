import { randomUUID } from 'node:crypto';
import { REDACTED, type webhookInput, type webhookRecord, type webhookUpdate } from '@svc/contract';
import { badRequest, notFound } from '@svc/platform';
import type { z } from 'zod';
import type { AreaDeps } from '../area.js';
import type { Actor, AuditArea } from '../audit/index.js';
import { createHttpSender, type HttpSender } from './notifications.http.js';
import { testNotice } from './notifications.model.js';
import { classifyHttp, type SendOutcome } from './notifications.outcome.js';
import type { QueueStore } from './notifications.queue.store.js';
import { SsrfError, type TargetGuard } from './notifications.ssrf.js';
import type { NotificationStore, WebhookRow } from './notifications.store.js';
import { WebhookConfigError } from './webhook.kind.js';
import { type BuiltRequest, buildWebhookRequest, type WebhookConfig } from './webhook.request.js';

type Input = z.infer<typeof webhookInput>;
type Record_ = z.input<typeof webhookRecord>;
interface Secrets {
  headers: Record<string, string>;
  customFields: Record<string, string>;
  signingSecret: string;
}

const purpose = (id: string) => `notifications.webhook:${id}`;
const mask = (m: Record<string, string>) => Object.fromEntries(Object.keys(m).map((k) => [k, REDACTED]));
/** Masked values sent back keep the stored value of the same key; anything else replaces it. */
const keepMasked = (incoming: Record<string, string>, stored: Record<string, string>) =>
  Object.fromEntries(Object.entries(incoming).map(([k, v]) => [k, v === REDACTED ? (stored[k] ?? '') : v]));

export function createWebhooks(
  deps: AreaDeps,
  store: NotificationStore,
  queue: QueueStore,
  audit: AuditArea,
  guard: TargetGuard,
) {
  const http: HttpSender = createHttpSender(guard, { timeoutMs: 30_000, now: () => deps.clock.now() });
  // Live sends read configs from memory; every write below drops the cached copy.
  // Promises, not values: a burst of concurrent sends shares one load instead of each reading the row.
  const cache = new Map<string, Promise<WebhookConfig | undefined>>();

  const open = (row: WebhookRow): WebhookConfig => {
    const s = JSON.parse(deps.secrets.open(row.sealed_secrets, purpose(row.id))) as Secrets;
    return {
      id: row.id,
      name: row.name,
      url: row.url,
      method: row.method,
      service: row.service as WebhookConfig['service'],
      enabled: row.enabled === 1,
      template: row.template,
      mention: row.mention,
      ...s,
    };
  };
  const toRecord = (row: WebhookRow, c: WebhookConfig): Record_ => ({
    id: row.id,
    name: row.name,
    url: row.url,
    method: row.method,
    service: c.service,
    enabled: c.enabled,
    template: row.template,
    headers: mask(c.headers),
    customFields: mask(c.customFields),
    mention: row.mention,
    signingSecretSet: c.signingSecret !== '',
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  });
  const toRow = (c: WebhookConfig, now: number) => ({
    id: c.id,
    name: c.name,
    url: c.url,
    method: c.method,
    service: c.service,
    enabled: c.enabled ? 1 : 0,
    template: c.template,
    mention: c.mention,
    sealed_secrets: deps.secrets.seal(
      JSON.stringify({
        headers: c.headers,
        customFields: c.customFields,
        signingSecret: c.signingSecret,
      } satisfies Secrets),
      purpose(c.id),
    ),
    updated_at: now,
  });

  /** Builds the test request and checks its target: what save and test refuse with a 400. */
  async function validate(c: WebhookConfig): Promise<BuiltRequest> {
    let req: BuiltRequest;
    try {
      req = buildWebhookRequest(c, [testNotice(deps.clock.now())], {
        now: deps.clock.now(),
        publicUrl: deps.config.publicUrl,
      });
      await guard.checkUrl(req.url);
    } catch (err) {
      if (err instanceof WebhookConfigError || err instanceof SsrfError)
        throw badRequest(err.message, { field: err instanceof SsrfError ? 'url' : 'template' });
      throw err;
    }
    return req;
  }

  function load(id: string): Promise<WebhookConfig | undefined> {
    const hit = cache.get(id);
    if (hit) return hit;
    const p = store.getWebhook(id).then((row) => (row ? open(row) : undefined));
    cache.set(id, p);
    p.catch(() => cache.delete(id));
    return p;
  }

  function fromInput(id: string, input: Input, stored?: WebhookConfig): WebhookConfig {
    const keep = input.signingSecret === undefined || input.signingSecret === REDACTED;
    return {
      id,
      name: input.name,
      url: input.url,
      method: input.method,
      service: input.service,
      enabled: input.enabled,
      template: input.template,
      mention: input.mention,
      headers: keepMasked(input.headers, stored?.headers ?? {}),
      customFields: keepMasked(input.customFields, stored?.customFields ?? {}),
      signingSecret: keep ? (stored?.signingSecret ?? '') : (input.signingSecret ?? ''),
    };
  }

  /** One delivery to a webhook: the function live sends, queue tests and webhook tests all use. */
  async function deliver(
    c: WebhookConfig,
    notices: Parameters<typeof buildWebhookRequest>[1],
    signal?: AbortSignal,
  ): Promise<SendOutcome> {
    const started = performance.now();
    const dur = () => Math.round(performance.now() - started);
    let req: BuiltRequest;
    try {
      req = buildWebhookRequest(c, notices, { now: deps.clock.now(), publicUrl: deps.config.publicUrl });
    } catch (err) {
      if (err instanceof WebhookConfigError)
        return { ok: false, status: 0, response: '', error: err.message, retryable: false, durationMs: dur() };
      throw err;
    }
    const r = await http.send(req, signal);
    if (r.status === 0)
      return { ok: false, status: 0, response: '', error: r.error, retryable: r.network, durationMs: dur() };
    const cls = classifyHttp(r.status);
    const error = cls.ok
      ? undefined
      : `HTTP ${r.status}${cls.retryable ? '' : ' (not retried: the receiver rejected the request)'}: ${r.body.slice(0, 300)}`;
    return {
      ok: cls.ok,
      status: r.status,
      response: r.body.slice(0, 1000),
      error,
      retryable: cls.retryable,
      retryAfterMs: r.retryAfterMs,
      durationMs: dur(),
    };
  }

  return {
    deliver,
    load,
    close: () => http.close(),
    http,
    async list(): Promise<Record_[]> {
      return (await store.listWebhooks()).map((r) => toRecord(r, open(r)));
    },
    async enabled(): Promise<Array<{ id: string; name: string }>> {
      const rows = await store.listWebhooks();
      return rows.filter((r) => r.enabled === 1).map((r) => ({ id: r.id, name: r.name }));
    },
    async create(actor: Actor, input: Input): Promise<Record_> {
      const now = deps.clock.now();
      const c = fromInput(`webhook-${randomUUID()}`, input);
      await validate(c);
      await store.transaction(async (trx) => {
        await store.insertWebhook(trx, { ...toRow(c, now), created_at: now });
        await audit.record(trx, actor, {
          event: 'notifications.webhook.create',
          success: true,
          details: `${c.id} ${c.service} ${c.name}`,
        });
      });
      cache.delete(c.id);
      return toRecord({ ...toRow(c, now), created_at: now, org_id: '' }, c);
    },
    async update(actor: Actor, id: string, patch: z.infer<typeof webhookUpdate>): Promise<Record_> {
      const row = await store.getWebhook(id);
      if (!row) throw notFound(`Webhook ${id}`);
      const stored = open(row);
      const merged: Input = {
        ...stored,
        ...patch,
        headers: patch.headers ?? mask(stored.headers),
        customFields: patch.customFields ?? mask(stored.customFields),
        method: (patch.method ?? stored.method) as Input['method'],
        signingSecret: patch.signingSecret,
      };
      const c = fromInput(id, merged, stored);
      if (c.enabled) await validate(c);
      const now = deps.clock.now();
      await store.transaction(async (trx) => {
        await store.updateWebhook(trx, toRow(c, now));
        await audit.record(trx, actor, {
          event: 'notifications.webhook.update',
          success: true,
          details: `${id} ${c.service} ${c.name}`,
        });
      });
      cache.delete(id);
      return toRecord({ ...toRow(c, now), created_at: row.created_at, org_id: row.org_id }, c);
    },
    async remove(actor: Actor, id: string): Promise<void> {
      const removed = await store.transaction(async (trx) => {
        const ok = await store.deleteWebhook(trx, id);
        if (ok) await audit.record(trx, actor, { event: 'notifications.webhook.delete', success: true, details: id });
        return ok;
      });
      if (!removed) throw notFound(`Webhook ${id}`);
      cache.delete(id);
      await queue.failChannel('webhook', id, 'webhook deleted', deps.clock.now());
    },
    /** Tests an unsaved webhook (masked secrets filled from the stored one named by `id`). */
    async test(input: Input & { id?: string }): Promise<SendOutcome & { eventId: string }> {
      const stored = input.id ? await load(input.id) : undefined;
      const c = fromInput(input.id ?? 'test', input, stored);
      const req = await validate(c);
      const notice = testNotice(deps.clock.now());
      const out = await deliver(c, [notice]);
      return { ...out, eventId: req.eventId };
    },
  };
}

export type Webhooks = ReturnType<typeof createWebhooks>;
