import type { Migration } from '@svc/platform';
import { m001Settings } from './001-settings.js';
import { m002Access } from './002-access.js';
import { m003AuditLicense } from './003-audit-license.js';
import { m004Metrics } from './004-metrics.js';

/** In order; append only. */
export const migrations: readonly Migration[] = [m001Settings, m002Access, m003AuditLicense, m004Metrics];
