import { createHmac } from 'node:crypto';
import type { WebhookKind } from '@svc/contract';
import { ExecError, TemplateError } from '@svc/gotemplate';
import { checkJson } from './notifications.json-check.js';
import { type Notice, templateData } from './notifications.model.js';
import { renderTemplate } from './notifications.render.js';
import { type KindConfig, WebhookConfigError } from './webhook.kind.js';
import { webhookKindImpls } from './webhook.kinds.js';

/** A webhook with its secrets opened, as sending needs it. */
export interface WebhookConfig extends KindConfig {
  id: string;
  name: string;
  method: string;
  service: WebhookKind;
  enabled: boolean;
  template: string;
  signingSecret: string;
}

export interface BuiltRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string;
  eventId: string;
}

export const EVENT_ID_HEADER = 'X-Svc-Event-ID';
export const TIMESTAMP_HEADER = 'X-Svc-Timestamp';
export const SIGNATURE_HEADER = 'X-Svc-Signature';

/** `v1=` + hex HMAC-SHA256 over `<unix seconds>.<body>`: receivers recompute it to authenticate svc. */
export function signature(secret: string, timestamp: number, body: string): string {
  return `v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

function render(what: 'url' | 'payload', text: string, data: Record<string, unknown>): string {
  try {
    return renderTemplate(what, text, data);
  } catch (err) {
    if (err instanceof TemplateError) throw new WebhookConfigError(`invalid ${what} template: ${err.message}`);
    if (err instanceof ExecError) throw new WebhookConfigError(`${what} template execution failed: ${err.message}`);
    throw err;
  }
}

function targetUrl(w: WebhookConfig, data: Record<string, unknown>): URL {
  // Only templated URLs are rendered: a literal URL may contain "{" legitimately.
  const text = w.url.includes('{{') ? render('url', w.url, data).trim() : w.url.trim();
  if (!text) throw new WebhookConfigError('webhook URL template produced an empty URL');
  try {
    const u = new URL(text);
    if (!u.host) throw new Error('no host');
    return u;
  } catch {
    throw new WebhookConfigError(`webhook URL is not a valid absolute URL: ${JSON.stringify(text.slice(0, 200))}`);
  }
}

/** The target of a webhook, rendered and checked; URLs without a template are worked out once. */
const literal = new Map<string, { url: string; chatId?: string }>();
const LITERAL_MAX = 500;

function target(w: WebhookConfig, data: Record<string, unknown>): { url: string; chatId?: string } {
  const kind = webhookKindImpls[w.service];
  const templated = w.url.includes('{{');
  const key = `${w.service}\u0000${w.url}`;
  const hit = templated ? undefined : literal.get(key);
  if (hit) return hit;
  const u = targetUrl(w, data);
  const t = kind.target ? kind.target(u) : { url: u };
  const out = t.chatId === undefined ? { url: t.url.toString() } : { url: t.url.toString(), chatId: t.chatId };
  if (!templated) {
    if (literal.size >= LITERAL_MAX) literal.clear();
    literal.set(key, out);
  }
  return out;
}

/**
 * Everything a delivery sends, from the webhook and the notices: rendered URL, payload (built-in or the user's
 * template, checked to be JSON where the kind needs it), custom headers, event id and signature. Live sends
 * and tests both call this, so a test that passes means live sends are built the same way.
 */
export function buildWebhookRequest(
  w: WebhookConfig,
  notices: readonly Notice[],
  env: { now: number; publicUrl?: string },
): BuiltRequest {
  const kind = webhookKindImpls[w.service];
  kind.validate?.(w);
  // PagerDuty users often configure the integration key as a header, as the service's docs show it.
  const customFields =
    w.service === 'pagerduty' && !w.customFields.routing_key && w.headers.routing_key
      ? { ...w.customFields, routing_key: w.headers.routing_key }
      : { ...w.customFields };
  const data = templateData(notices, { now: env.now, publicUrl: env.publicUrl, customFields, mention: w.mention });
  const to = target(w, data);
  if (to.chatId !== undefined) data.ChatID = to.chatId;
  const custom = w.template.trim() !== '';
  const body = custom ? render('payload', w.template, data) : kind.payload(data);
  // Built-in payloads come from JSON.stringify; only a user's template can render broken JSON.
  if (kind.json && custom) {
    const problem = checkJson(body);
    if (problem) throw new WebhookConfigError(`payload is not valid JSON: ${problem.message}`);
  }
  const eventId = notices[0]!.eventId;
  const headers: Record<string, string> = {
    'Content-Type': kind.contentType,
    'User-Agent': 'svc-notifications/1',
    ...kind.headers?.(data),
    ...w.headers,
    // Integrity headers come last: custom headers cannot override them.
    [EVENT_ID_HEADER]: eventId,
  };
  if (w.signingSecret) {
    const ts = Math.floor(env.now / 1000);
    headers[TIMESTAMP_HEADER] = String(ts);
    headers[SIGNATURE_HEADER] = signature(w.signingSecret, ts, body);
  }
  return { url: to.url, method: w.method || 'POST', headers, body, eventId };
}
