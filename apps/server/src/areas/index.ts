import type { Routes } from '@svc/contract';
import type { Handlers } from '@svc/platform';
import type { Caller } from '../platform/http/principal.js';
import { createAlertsArea } from './alerts/index.js';
import type { AreaDeps } from './area.js';
import { createAuditArea } from './audit/index.js';
import { createAuthArea } from './auth/index.js';
import { createChartsArea } from './charts/index.js';
import { createExpositionArea } from './exposition/index.js';
import { createLicenseArea } from './license/index.js';
import { createMetadataArea } from './metadata/index.js';
import { createMetricsArea } from './metrics/index.js';
import { createMonitoringArea } from './monitoring/index.js';
import { createNodesArea } from './nodes/index.js';
import { createNoticeSink, createNotificationsArea } from './notifications/index.js';
import { createReportsArea } from './reports/index.js';
import { createResourcesArea } from './resources/index.js';
import { createSecurityArea } from './security/index.js';
import { createSystemArea } from './system/index.js';

export type { AreaDeps } from './area.js';

/** Every area, listed explicitly. The result must hold a handler for every route in the contract. */
export function createAreas(deps: AreaDeps) {
  let isMockMode = () => false;
  const system = createSystemArea(deps, () => isMockMode());
  const audit = createAuditArea(deps);
  const auth = createAuthArea(deps, audit);
  const security = createSecurityArea(deps, auth, audit);
  const license = createLicenseArea(deps, audit);
  const metrics = createMetricsArea(deps, { hasFeature: deps.hasFeature ?? license.service.hasFeature });
  const nodes = createNodesArea(deps, audit, deps.polls);
  const monitoring = createMonitoringArea(deps, nodes);
  isMockMode = monitoring.mock.enabled;
  const history = metrics.service.getHistory;
  const metadata = createMetadataArea(deps, audit);
  const resources = createResourcesArea(deps, {
    audit,
    history,
    tagsFor: metadata.tagsFor,
    onMetadataChange: metadata.onChange,
  });
  const charts = createChartsArea(deps, history);
  const reports = createReportsArea(deps, history);
  const exposition = createExpositionArea(deps, resources.current);
  const notifications = createNotificationsArea(deps, audit, { timers: deps.timers });
  const alerts = createAlertsArea(deps, audit, { sink: createNoticeSink(notifications) });
  // Grouping and the hourly cap are alert settings that the delivery queue applies.
  const syncDeliveryPolicy = () => {
    const { grouping, maxAlertsHour } = alerts.config().schedule;
    notifications.setPolicy({
      groupWindowMs: grouping.enabled ? grouping.window * 1000 : 0,
      maxPerHour: Math.max(0, maxAlertsHour),
    });
  };
  const handlers: Handlers<Routes, Caller> = {
    ...system.handlers,
    ...auth.handlers,
    ...security.handlers,
    ...license.handlers,
    ...audit.handlers,
    ...metrics.handlers,
    ...nodes.handlers,
    ...monitoring.handlers,
    ...resources.handlers,
    ...metadata.handlers,
    ...charts.handlers,
    ...reports.handlers,
    ...exposition.handlers,
    ...notifications.handlers,
    ...alerts.handlers,
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
      await nodes.start();
      await metadata.start();
      await resources.start();
      await notifications.start();
      await alerts.start();
      syncDeliveryPolicy();
    },
    system,
    audit,
    auth,
    security,
    license,
    metrics,
    nodes,
    monitoring,
    close: async () => {
      alerts.stop();
      await notifications.stop();
      await monitoring.mock.close();
    },
    notifications,
    alerts,
    /** Recurring background work, run by the app's job scheduler. */
    jobs: [
      ...metrics.jobs,
      ...alerts.jobs,
      { name: 'notifications-policy', intervalMs: 30_000, run: async () => syncDeliveryPolicy() },
    ],
    resources,
    metadata,
  };
}
