import { join } from 'node:path';
import type { RequestContext } from '@svc/platform';
import { loadOrCreateKeyFile } from '../../platform/crypto/index.js';
import type { Caller } from '../../platform/http/principal.js';
import type { AreaDeps } from '../area.js';
import { auditHandlers } from './audit.routes.js';
import { type Actor, createAuditService } from './audit.service.js';
import { createAuditStore } from './audit.store.js';

export type { Actor, AuditInput } from './audit.service.js';

export function createAuditArea(deps: AreaDeps) {
  const key = loadOrCreateKeyFile(join(deps.config.dataDir, '.audit-signing.key'));
  const service = createAuditService(deps, createAuditStore(deps.db), key);
  return { service, record: service.record, handlers: auditHandlers(service) };
}

export type AuditArea = ReturnType<typeof createAuditArea>;

/** The actor of an audit entry, from a request: the caller's name (or the one given), address and path. */
export function actorOf(ctx: RequestContext<Caller>, path: string, user?: string): Actor {
  return { user: user ?? ctx.principal?.username ?? 'anonymous', ip: ctx.ip, path };
}
