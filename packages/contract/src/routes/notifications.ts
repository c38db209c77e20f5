import { z } from 'zod';
import { queryInt } from '../common.js';
import { defineRoute } from '../route.js';

/** Target kinds of a webhook; every kind has an implementation on the server (an exhaustive registry). */
export const webhookKinds = [
  'generic',
  'discord',
  'slack',
  'teams',
  'teams-adaptive',
  'telegram',
  'gotify',
  'ntfy',
  'pagerduty',
  'pushover',
  'mattermost',
] as const;
export type WebhookKind = (typeof webhookKinds)[number];

/** What responses show instead of a secret; sending it back in an update keeps the stored value. */
export const REDACTED = '***REDACTED***';

const headerName = z.string().regex(/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/, 'not a valid HTTP header name');
const headerMap = z.record(headerName, z.string().max(8192));

export const webhookInput = z
  .object({
    name: z.string().trim().min(1).max(200),
    url: z.string().trim().min(1).max(4096).describe('Target URL; may contain template variables ({{.Node}})'),
    method: z.enum(['POST', 'PUT', 'PATCH']).default('POST'),
    service: z.enum(webhookKinds).default('generic'),
    enabled: z.boolean().default(true),
    template: z.string().max(65_536).default('').describe('Go template of the JSON payload; empty = built-in'),
    headers: headerMap.default({}).describe(`Sent with every request; values are secrets (${REDACTED} keeps one)`),
    customFields: z.record(z.string().min(1).max(100), z.string().max(4096)).default({}),
    mention: z.string().max(500).default(''),
    signingSecret: z.string().max(1024).optional().describe(`HMAC-SHA256 key; omit or ${REDACTED} to keep`),
  })
  .meta({ id: 'WebhookInput' });

export const webhookUpdate = webhookInput.partial().meta({ id: 'WebhookUpdate' });

export const webhookRecord = z
  .object({
    id: z.string(),
    name: z.string(),
    url: z.string(),
    method: z.string(),
    service: z.enum(webhookKinds),
    enabled: z.boolean(),
    template: z.string(),
    headers: z.record(z.string(), z.string()).describe(`Values are always ${REDACTED}`),
    customFields: z.record(z.string(), z.string()).describe(`Values are always ${REDACTED}`),
    mention: z.string(),
    signingSecretSet: z.boolean(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'Webhook' });

export const sendResult = z
  .object({
    success: z.boolean(),
    status: z.number().int().describe('HTTP status of the receiver; 0 when no answer was received'),
    response: z.string().describe('Start of the response body'),
    error: z.string().optional(),
    eventId: z.string(),
    durationMs: z.number(),
  })
  .meta({ id: 'WebhookSendResult' });

export const webhookTemplateInfo = z
  .object({
    service: z.enum(webhookKinds),
    label: z.string(),
    urlPattern: z.string(),
    method: z.string(),
    headers: z.record(z.string(), z.string()),
    description: z.string(),
    instructions: z.string(),
    payloadTemplate: z.string().describe('Example payload template (the generic kind starts from it)'),
    mentionPlaceholder: z.string().optional(),
  })
  .meta({ id: 'WebhookTemplateInfo' });

export const channelKinds = ['webhook', 'email', 'relay'] as const;
export type ChannelKind = (typeof channelKinds)[number];

export const historyEntry = z
  .object({
    id: z.string(),
    timestamp: z.string(),
    channel: z.enum(channelKinds),
    channelId: z.string(),
    name: z.string(),
    eventId: z.string(),
    event: z.string(),
    alertId: z.string(),
    attempt: z.number().int(),
    statusCode: z.number().int(),
    durationMs: z.number(),
    success: z.boolean(),
    error: z.string().optional(),
  })
  .meta({ id: 'DeliveryAttempt' });

export const emailConfigInput = z
  .object({
    enabled: z.boolean().default(false),
    provider: z.string().max(100).default(''),
    server: z.string().trim().max(255).default(''),
    port: z.number().int().min(1).max(65_535).default(587),
    username: z.string().max(255).default(''),
    password: z.string().max(1024).optional().describe('Write-only; omit or empty to keep the stored one'),
    from: z.string().trim().max(320).default(''),
    to: z.array(z.string().trim().email()).max(100).default([]),
    tls: z.boolean().default(false).describe('Implicit TLS (usually port 465)'),
    startTLS: z.boolean().default(true).describe('Upgrade with STARTTLS (usually port 587)'),
  })
  .refine((v) => !v.enabled || (v.server !== '' && v.from !== ''), {
    error: 'server and from are required when enabled is true',
    path: ['server'],
  })
  .meta({ id: 'EmailConfigInput' });

export const emailConfig = z
  .object({
    enabled: z.boolean(),
    provider: z.string(),
    server: z.string(),
    port: z.number().int(),
    username: z.string(),
    passwordSet: z.boolean(),
    from: z.string(),
    to: z.array(z.string()),
    tls: z.boolean(),
    startTLS: z.boolean(),
  })
  .meta({ id: 'EmailConfig' });

export const emailProvider = z
  .object({
    name: z.string(),
    smtpHost: z.string(),
    smtpPort: z.number().int(),
    tls: z.boolean(),
    startTLS: z.boolean(),
    authRequired: z.boolean(),
    instructions: z.string(),
  })
  .meta({ id: 'EmailProvider' });

export const relayConfigInput = z
  .object({
    enabled: z.boolean().default(false),
    mode: z.enum(['cli', 'http']).default('cli'),
    targets: z.array(z.string().trim().min(1).max(4096)).max(100).default([]),
    serverUrl: z.union([z.url({ protocol: /^https?$/ }), z.literal('')]).default(''),
    configKey: z.string().max(200).default(''),
    apiKey: z.string().max(1024).optional().describe('Write-only; omit to keep the stored one'),
    apiKeyHeader: z.string().max(100).default('X-API-KEY'),
    timeoutSeconds: z.number().int().min(5).max(120).default(15),
  })
  .refine((v) => !v.enabled || (v.mode === 'cli' ? v.targets.length > 0 : v.serverUrl !== ''), {
    error: 'cli mode needs at least one target; http mode needs serverUrl',
    path: ['mode'],
  })
  .meta({ id: 'RelayConfigInput' });

export const relayConfig = z
  .object({
    enabled: z.boolean(),
    mode: z.enum(['cli', 'http']),
    targets: z.array(z.string()).describe('Apprise URLs; their credentials are masked'),
    serverUrl: z.string(),
    configKey: z.string(),
    apiKeySet: z.boolean(),
    apiKeyHeader: z.string(),
    timeoutSeconds: z.number().int(),
  })
  .meta({ id: 'RelayConfig' });

export const channelTestResult = z.object({
  channel: z.enum(channelKinds),
  id: z.string(),
  name: z.string(),
  success: z.boolean(),
  status: z.number().int(),
  error: z.string().optional(),
  eventId: z.string(),
});

export const queueStats = z
  .object({
    pending: z.number().int(),
    sending: z.number().int(),
    sent: z.number().int(),
    failed: z.number().int(),
    dlq: z.number().int(),
  })
  .meta({ id: 'QueueStats' });

export const dlqEntry = z
  .object({
    id: z.string(),
    channel: z.enum(channelKinds),
    channelId: z.string(),
    name: z.string(),
    eventId: z.string(),
    event: z.string(),
    alertId: z.string(),
    attempts: z.number().int(),
    maxAttempts: z.number().int(),
    lastError: z.string(),
    lastStatusCode: z.number().int(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'DeadLetter' });

export const channelHealth = z.object({
  channel: z.enum(channelKinds),
  id: z.string(),
  name: z.string(),
  lastSuccessAt: z.string().nullable(),
  lastErrorAt: z.string().nullable(),
  lastError: z.string().nullable(),
  consecutiveFailures: z.number().int(),
});

const idBody = z.object({ id: z.string().min(1).max(200) });
const idResult = z.object({ success: z.literal(true), id: z.string() });
const idParams = z.object({ id: z.string().min(1).max(200) });
const limitQuery = (def: number, max: number) => z.object({ limit: queryInt(1, max).default(def) });

const admin = (write: boolean) =>
  ({ tag: 'Notifications', access: 'admin', scopes: [write ? 'settings:write' : 'settings:read'] }) as const;

export const notificationRoutes = {
  listWebhooks: defineRoute({
    method: 'GET',
    path: '/api/notifications/webhooks',
    summary: 'Webhooks (header values, custom fields and signing secrets masked)',
    ...admin(false),
    response: z.array(webhookRecord),
  }),
  createWebhook: defineRoute({
    method: 'POST',
    path: '/api/notifications/webhooks',
    summary: 'Create a webhook; the URL is checked (SSRF guard) and a generic template must render to JSON',
    ...admin(true),
    body: webhookInput,
    response: webhookRecord,
    status: 201,
  }),
  updateWebhook: defineRoute({
    method: 'PUT',
    path: '/api/notifications/webhooks/{id}',
    summary: 'Update a webhook; masked secret values keep the stored ones',
    ...admin(true),
    params: idParams,
    body: webhookUpdate,
    response: webhookRecord,
  }),
  deleteWebhook: defineRoute({
    method: 'DELETE',
    path: '/api/notifications/webhooks/{id}',
    summary: 'Delete a webhook; its queued deliveries are cancelled',
    ...admin(true),
    params: idParams,
    response: z.object({ status: z.literal('success') }),
  }),
  testWebhook: defineRoute({
    method: 'POST',
    path: '/api/notifications/webhooks/test',
    summary: 'Send a test alert to an (unsaved) webhook with the code live sends use',
    ...admin(true),
    body: webhookInput.extend({
      id: z.string().optional().describe('Stored webhook whose secrets fill masked values'),
    }),
    response: sendResult,
  }),
  listWebhookTemplates: defineRoute({
    method: 'GET',
    path: '/api/notifications/webhook-templates',
    summary: 'The webhook kinds with URL patterns, headers and an example payload template',
    ...admin(false),
    response: z.array(webhookTemplateInfo),
  }),
  webhookHistory: defineRoute({
    method: 'GET',
    path: '/api/notifications/webhook-history',
    summary: 'Every delivery attempt of the last 7 days, newest first',
    ...admin(false),
    query: limitQuery(100, 1000),
    response: z.array(historyEntry),
  }),
  getEmailConfig: defineRoute({
    method: 'GET',
    path: '/api/notifications/email',
    summary: 'SMTP settings (the password is never returned)',
    ...admin(false),
    response: emailConfig,
  }),
  setEmailConfig: defineRoute({
    method: 'PUT',
    path: '/api/notifications/email',
    summary: 'Replace the SMTP settings',
    ...admin(true),
    body: emailConfigInput,
    response: emailConfig,
  }),
  listEmailProviders: defineRoute({
    method: 'GET',
    path: '/api/notifications/email-providers',
    summary: 'SMTP presets of common providers',
    ...admin(false),
    response: z.array(emailProvider),
  }),
  getRelayConfig: defineRoute({
    method: 'GET',
    path: '/api/notifications/relay',
    summary: 'Apprise relay settings (CLI or HTTP mode)',
    ...admin(false),
    response: relayConfig,
  }),
  setRelayConfig: defineRoute({
    method: 'PUT',
    path: '/api/notifications/relay',
    summary: 'Replace the Apprise relay settings',
    ...admin(true),
    body: relayConfigInput,
    response: relayConfig,
  }),
  testNotifications: defineRoute({
    method: 'POST',
    path: '/api/notifications/test',
    summary: 'Send a test notice to every enabled channel through the delivery queue; one result per channel',
    ...admin(true),
    response: z.object({ results: z.array(channelTestResult) }),
  }),
  listDeadLetters: defineRoute({
    method: 'GET',
    path: '/api/notifications/dlq',
    summary: 'Deliveries that exhausted their retries or were refused (no secrets)',
    ...admin(false),
    query: limitQuery(100, 1000),
    response: z.array(dlqEntry),
  }),
  retryDeadLetter: defineRoute({
    method: 'POST',
    path: '/api/notifications/dlq/retry',
    summary: 'Queue a dead letter again with a fresh retry budget',
    ...admin(true),
    body: idBody,
    response: idResult,
  }),
  deleteDeadLetter: defineRoute({
    method: 'POST',
    path: '/api/notifications/dlq/delete',
    summary: 'Drop a dead letter',
    ...admin(true),
    body: idBody,
    response: idResult,
  }),
  queueStats: defineRoute({
    method: 'GET',
    path: '/api/notifications/queue/stats',
    summary: 'Queue rows per status (sent and failed rows are kept 7 days)',
    ...admin(false),
    response: queueStats,
  }),
  notificationHealth: defineRoute({
    method: 'GET',
    path: '/api/notifications/health',
    summary: 'Per channel: last success, last error and consecutive failures; queue counts',
    ...admin(false),
    response: z.object({ healthy: z.boolean(), queue: queueStats, channels: z.array(channelHealth) }),
  }),
} as const;
