import type { AreaDeps } from '../area.js';
import type { AuditArea } from '../audit/index.js';
import { createAuthenticator } from './auth.authenticate.js';
import { createLockout } from './auth.lockout.js';
import { authHandlers } from './auth.routes.js';
import { createAuthService } from './auth.service.js';
import { createSessions } from './auth.sessions.js';
import { createAuthStore } from './auth.store.js';

export type { CredentialSources } from './auth.authenticate.js';
export { MAX_FAILURES } from './auth.lockout.js';
export { CSRF_COOKIE, SESSION_COOKIE } from './auth.sessions.js';

export function createAuthArea(deps: AreaDeps, audit: AuditArea) {
  const store = createAuthStore(deps.db);
  const sessions = createSessions(deps, store);
  const lockout = createLockout(store, deps.clock);
  const service = createAuthService(deps, store, sessions, lockout, audit);
  return { service, sessions, handlers: authHandlers(service), createAuthenticator };
}

export type AuthArea = ReturnType<typeof createAuthArea>;
