import { auditRoutes } from './audit.js';
import { authRoutes } from './auth.js';
import { licenseRoutes } from './license.js';
import { metricsRoutes } from './metrics.js';
import { securityRoutes } from './security.js';
import { systemRoutes } from './system.js';

/**
 * Every route svc serves. The server binds routes only from this table, the OpenAPI document is generated
 * from it, and access checks read their rules from it.
 */
export const routes = {
  ...systemRoutes,
  ...authRoutes,
  ...securityRoutes,
  ...licenseRoutes,
  ...auditRoutes,
  ...metricsRoutes,
} as const;

export type Routes = typeof routes;
export type RouteId = keyof Routes;
