import type { AreaDeps } from '../area.js';
import type { AuditArea } from '../audit/index.js';
import type { AuthArea } from '../auth/index.js';
import { createOidc } from './security.oidc.js';
import { createRecovery } from './security.recovery.js';
import { securityHandlers } from './security.routes.js';
import { createSecurityService } from './security.service.js';
import { createSetup } from './security.setup.js';
import { createSecurityStore } from './security.store.js';
import { createTokens } from './security.tokens.js';

export { newRawToken } from './security.tokens.js';

export function createSecurityArea(deps: AreaDeps, auth: AuthArea, audit: AuditArea) {
  const store = createSecurityStore(deps.db);
  const tokens = createTokens(deps, store, audit);
  const setup = createSetup(deps, store, tokens, auth, audit);
  const recovery = createRecovery(deps, store, audit);
  const oidc = createOidc(deps, store, auth, audit);
  const service = createSecurityService(deps, { tokens, setup, recovery, oidcEnabled: oidc.enabled }, auth, audit);
  return {
    service,
    tokens,
    setup,
    recovery,
    oidc,
    handlers: securityHandlers({ service, tokens, setup, recovery, oidc }),
    /** Start-up work: recovery flag from the database, bootstrap token when no administrator exists. */
    async start(): Promise<void> {
      await recovery.load();
      await setup.prepareFirstRun();
    },
  };
}

export type SecurityArea = ReturnType<typeof createSecurityArea>;
