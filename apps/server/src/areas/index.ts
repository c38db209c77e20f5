import type { Routes } from '@svc/contract';
import type { Handlers } from '@svc/platform';
import type { Caller } from '../platform/http/principal.js';
import type { AreaDeps } from './area.js';
import { createAuditArea } from './audit/index.js';
import { createAuthArea } from './auth/index.js';
import { createLicenseArea } from './license/index.js';
import { createMetricsArea } from './metrics/index.js';
import { createSecurityArea } from './security/index.js';
import { createSystemArea } from './system/index.js';

export type { AreaDeps } from './area.js';

/** Every area, listed explicitly. The result must hold a handler for every route in the contract. */
export function createAreas(deps: AreaDeps) {
  const system = createSystemArea(deps);
  const audit = createAuditArea(deps);
  const auth = createAuthArea(deps, audit);
  const security = createSecurityArea(deps, auth, audit);
  const license = createLicenseArea(deps, audit);
  const metrics = createMetricsArea(deps, { hasFeature: deps.hasFeature ?? license.service.hasFeature });
  const handlers: Handlers<Routes, Caller> = {
    ...system.handlers,
    ...auth.handlers,
    ...security.handlers,
    ...license.handlers,
    ...audit.handlers,
    ...metrics.handlers,
  };
  const authenticate = auth.createAuthenticator({
    sessions: auth.sessions,
    token: (raw) => security.tokens.authenticate(raw),
    recovery: (req) => security.recovery.principal(req),
  });
  return {
    handlers,
    authenticate,
    hasFeature: license.service.hasFeature,
    authDisabled: security.recovery.active,
    async start(): Promise<void> {
      await license.start();
      await security.start();
    },
    system,
    audit,
    auth,
    security,
    license,
    metrics,
  };
}
