import { z } from 'zod';
import { queryInt } from '../common.js';
import { defineRoute } from '../route.js';
import {
  alertConfig,
  alertConfigPatch,
  alertIdentifier,
  alertRecord,
  incident,
  resolvedAlert,
} from './alerts.schemas.js';

export * from './alerts.schemas.js';

const isoTime = z.iso.datetime({ offset: true });
const read = { tag: 'Alerts', access: 'auth', scopes: ['monitoring:read'] } as const;
const write = { tag: 'Alerts', access: 'auth', scopes: ['monitoring:write'] } as const;

/** `{id}` (v5 and the spec) or `{alertIdentifier}` (v6); one of them is required. */
const idBody = z
  .object({ id: alertIdentifier.optional(), alertIdentifier: alertIdentifier.optional() })
  .refine((b) => b.id !== undefined || b.alertIdentifier !== undefined, { message: 'id is required', path: ['id'] });

const bulkBody = z
  .object({
    ids: z.array(alertIdentifier).max(10_000).optional(),
    alertIdentifiers: z.array(alertIdentifier).max(10_000).optional(),
  })
  .refine((b) => (b.ids?.length ?? 0) + (b.alertIdentifiers?.length ?? 0) > 0, {
    message: 'No alert identifiers provided',
    path: ['ids'],
  });

const success = z.object({ success: z.literal(true) }).meta({ id: 'AlertActionResult' });
const bulkResult = z
  .object({ results: z.array(z.object({ id: z.string(), success: z.boolean(), error: z.string().optional() })) })
  .meta({ id: 'AlertBulkResult' });

const legacy = (verb: 'acknowledge' | 'unacknowledge' | 'clear') =>
  ({
    ...write,
    method: 'POST',
    path: `/api/alerts/{id}/${verb}`,
    summary: `${verb[0]?.toUpperCase()}${verb.slice(1)} one alert (legacy path form; use POST /api/alerts/${verb})`,
    deprecated: true,
    params: z.object({ id: alertIdentifier }),
    response: success,
  }) as const;

export const alertsRoutes = {
  getAlertConfig: defineRoute({
    ...read,
    method: 'GET',
    path: '/api/alerts/config',
    summary: 'Alert rules, thresholds, schedule and notification policy',
    response: alertConfig,
  }),
  updateAlertConfig: defineRoute({
    ...write,
    method: 'PUT',
    path: '/api/alerts/config',
    summary: 'Change the alert configuration (sections given are merged over the current ones)',
    description:
      'Objects are merged key by key; `overrides`, `timeThresholds` and `metricTimeThresholds` are replaced whole. ' +
      'An invalid value answers 400 naming the field, and the stored configuration stays as it was.',
    body: alertConfigPatch,
    response: alertConfig,
  }),
  activateAlerts: defineRoute({
    ...write,
    method: 'POST',
    path: '/api/alerts/activate',
    summary: 'Start sending notifications (new installs evaluate alerts but notify nobody until this)',
    response: z
      .object({
        success: z.literal(true),
        message: z.string(),
        state: z.enum(['pending_review', 'active', 'snoozed']),
        activationTime: isoTime.optional(),
      })
      .meta({ id: 'AlertActivation' }),
  }),
  listActiveAlerts: defineRoute({
    ...read,
    method: 'GET',
    path: '/api/alerts/active',
    summary: 'Active alerts: critical first, then oldest first',
    response: z.array(alertRecord),
  }),
  getAlertHistory: defineRoute({
    ...read,
    method: 'GET',
    path: '/api/alerts/history',
    summary: 'Alert occurrences, newest first (open ones have no resolvedTime)',
    query: z
      .object({
        limit: queryInt(0, 10_000).default(100).describe('0 returns everything (capped at 10000)'),
        offset: queryInt(0, 1_000_000).default(0),
        startTime: isoTime.optional(),
        endTime: isoTime.optional(),
        severity: z.enum(['warning', 'critical', 'all']).default('all'),
        resourceId: z.string().min(1).max(500).optional(),
      })
      .refine((q) => !q.startTime || !q.endTime || Date.parse(q.endTime) >= Date.parse(q.startTime), {
        message: 'endTime must not be before startTime',
        path: ['endTime'],
      }),
    response: z.array(resolvedAlert),
  }),
  clearAlertHistory: defineRoute({
    ...write,
    method: 'DELETE',
    path: '/api/alerts/history',
    summary: 'Delete the alert history (active alerts stay)',
    response: z.object({ status: z.literal('success'), message: z.string() }).meta({ id: 'AlertHistoryCleared' }),
  }),
  getAlertIncidents: defineRoute({
    ...read,
    method: 'GET',
    path: '/api/alerts/incidents',
    summary: 'Incident timelines: the latest for one alert (or null), or a list by resource',
    query: z.object({
      alertIdentifier: alertIdentifier.optional(),
      alert_id: alertIdentifier.optional().describe('v5 name of alertIdentifier'),
      startTime: isoTime.optional().describe('With alertIdentifier: the occurrence that started at this time'),
      resource_id: z.string().min(1).max(500).optional(),
      limit: queryInt(1, 500).default(50),
    }),
    response: z.union([incident, z.null(), z.array(incident)]),
  }),
  addIncidentNote: defineRoute({
    ...write,
    method: 'POST',
    path: '/api/alerts/incidents/note',
    summary: 'Add a note to the incident of an alert (its latest occurrence) or to an incident by id',
    body: z
      .object({
        alertIdentifier: alertIdentifier.optional(),
        incident_id: z.string().min(1).max(200).optional(),
        note: z.string().trim().min(1, 'note is required').max(8192),
      })
      .refine((b) => b.alertIdentifier !== undefined || b.incident_id !== undefined, {
        message: 'alertIdentifier or incident_id is required',
        path: ['alertIdentifier'],
      }),
    response: success,
  }),
  acknowledgeAlert: defineRoute({
    ...write,
    method: 'POST',
    path: '/api/alerts/acknowledge',
    summary: 'Acknowledge an alert: no more reminders or escalations; the recovery is still announced',
    body: idBody,
    response: success,
  }),
  unacknowledgeAlert: defineRoute({
    ...write,
    method: 'POST',
    path: '/api/alerts/unacknowledge',
    summary: 'Remove the acknowledgement of an alert',
    body: idBody,
    response: success,
  }),
  clearAlert: defineRoute({
    ...write,
    method: 'POST',
    path: '/api/alerts/clear',
    summary: 'Dismiss an alert (announced as resolved); it fires again if its condition persists',
    body: idBody,
    response: success,
  }),
  bulkAcknowledgeAlerts: defineRoute({
    ...write,
    method: 'POST',
    path: '/api/alerts/bulk/acknowledge',
    summary: 'Acknowledge several alerts; the result says per id whether it worked',
    body: bulkBody,
    response: bulkResult,
  }),
  bulkClearAlerts: defineRoute({
    ...write,
    method: 'POST',
    path: '/api/alerts/bulk/clear',
    summary: 'Clear several alerts; the result says per id whether it worked',
    body: bulkBody,
    response: bulkResult,
  }),
  acknowledgeAlertLegacy: defineRoute(legacy('acknowledge')),
  unacknowledgeAlertLegacy: defineRoute(legacy('unacknowledge')),
  clearAlertLegacy: defineRoute(legacy('clear')),
} as const;
