import type { auditRoutes } from '@svc/contract';
import type { Handlers } from '@svc/platform';
import type { Caller } from '../../platform/http/principal.js';
import type { AuditService } from './audit.service.js';

export function auditHandlers(service: AuditService): Handlers<typeof auditRoutes, Caller> {
  return {
    listAuditEvents: (_ctx, { query }) => service.listEvents(query),
    verifyAuditEvent: (_ctx, { params }) => service.verifyEvent(params.id),
  };
}
