import { alertsRoutes } from './alerts.js';
import { auditRoutes } from './audit.js';
import { authRoutes } from './auth.js';
import { chartRoutes } from './charts.js';
import { expositionRoutes } from './exposition.js';
import { licenseRoutes } from './license.js';
import { metadataRoutes } from './metadata.js';
import { metricsRoutes } from './metrics.js';
import { monitoringRoutes } from './monitoring.js';
import { nodeRoutes } from './nodes.js';
import { notificationRoutes } from './notifications.js';
import { realtimeRoutes } from './realtime.js';
import { reportRoutes } from './reports.js';
import { resourceRoutes } from './resources.js';
import { securityRoutes } from './security.js';
import { setupRoutes } from './setup.js';
import { systemRoutes } from './system.js';

/**
 * Every route svc serves. The server binds routes only from this table, the OpenAPI document is generated
 * from it, and access checks read their rules from it.
 */
export const routes = {
  ...systemRoutes,
  ...nodeRoutes,
  ...setupRoutes,
  ...monitoringRoutes,
  ...authRoutes,
  ...securityRoutes,
  ...licenseRoutes,
  ...auditRoutes,
  ...metricsRoutes,
  ...resourceRoutes,
  ...metadataRoutes,
  ...chartRoutes,
  ...reportRoutes,
  ...expositionRoutes,
  ...notificationRoutes,
  ...alertsRoutes,
  ...realtimeRoutes,
} as const;

export type Routes = typeof routes;
export type RouteId = keyof Routes;
