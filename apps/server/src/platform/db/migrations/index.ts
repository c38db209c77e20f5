import type { Migration } from '@svc/platform';
import { m001Settings } from './001-settings.js';
import { m002Access } from './002-access.js';
import { m003AuditLicense } from './003-audit-license.js';
import { m004Metrics } from './004-metrics.js';
import { m005Nodes } from './005-nodes.js';
import { m006Notifications } from './006-notifications.js';
import { m007Resources } from './007-resources.js';
import { m008Alerts } from './008-alerts.js';
import { m009NotificationReceipts } from './009-notification-receipts.js';
import { m010NotificationQueueAlert } from './010-notification-queue-alert.js';

/** In order; append only. */
export const migrations: readonly Migration[] = [
  m001Settings,
  m002Access,
  m003AuditLicense,
  m004Metrics,
  m005Nodes,
  m006Notifications,
  m007Resources,
  m008Alerts,
  m009NotificationReceipts,
  m010NotificationQueueAlert,
];
