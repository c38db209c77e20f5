import { z } from 'zod';
import { queryBoolean, queryInt } from '../common.js';
import { defineRoute } from '../route.js';

export const auditEvent = z
  .object({
    id: z.string().describe('UUID'),
    timestamp: z.string().describe('ISO 8601 UTC'),
    event: z.string().describe('Event type, such as login, token_created, license_activated'),
    user: z.string(),
    ip: z.string(),
    path: z.string(),
    success: z.boolean(),
    details: z.string(),
    signature: z.string().describe('HMAC-SHA256 over the other fields, keyed by <data dir>/.audit-signing.key'),
  })
  .meta({ id: 'AuditEvent' });

const isoTime = z.iso.datetime({ offset: true });

export const auditRoutes = {
  listAuditEvents: defineRoute({
    method: 'GET',
    path: '/api/audit',
    summary: 'Security audit log, newest first',
    tag: 'Audit',
    access: 'admin',
    scopes: ['settings:read'],
    feature: 'audit_logging',
    query: z.object({
      limit: queryInt(1, 1000).default(100),
      event: z.string().max(64).optional(),
      user: z.string().max(256).optional(),
      success: queryBoolean.optional(),
      startTime: isoTime.optional(),
      endTime: isoTime.optional(),
    }),
    response: z
      .object({ events: z.array(auditEvent), total: z.number().int(), persistentLogging: z.boolean() })
      .meta({ id: 'AuditList' }),
  }),
  verifyAuditEvent: defineRoute({
    method: 'GET',
    path: '/api/audit/{id}/verify',
    summary: 'Check the signature of one audit event (false when the stored row was altered)',
    tag: 'Audit',
    access: 'admin',
    scopes: ['settings:read'],
    feature: 'audit_logging',
    params: z.object({ id: z.uuid() }),
    response: z
      .object({ available: z.boolean(), verified: z.boolean(), message: z.string() })
      .meta({ id: 'AuditVerification' }),
  }),
} as const;
