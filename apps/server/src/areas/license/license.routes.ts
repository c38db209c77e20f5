import { licenseRoutes as r } from '@svc/contract';
import type { Handlers } from '@svc/platform';
import type { Caller } from '../../platform/http/principal.js';
import { actorOf } from '../audit/index.js';
import type { LicenseService } from './license.service.js';

export function licenseHandlers(service: LicenseService): Handlers<typeof r, Caller> {
  return {
    getLicenseStatus: () => service.getStatus(),
    getLicenseFeatures: () => service.getFeatures(),
    activateLicense: (ctx, { body }) => service.activate(actorOf(ctx, r.activateLicense.path), body.license_key),
    clearLicense: (ctx) => service.clear(actorOf(ctx, r.clearLicense.path)),
  };
}
