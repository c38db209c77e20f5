import type { AreaDeps } from '../area.js';
import type { AuditArea } from '../audit/index.js';
import { licenseHandlers } from './license.routes.js';
import { createLicenseService } from './license.service.js';
import { createLicenseStore } from './license.store.js';

export { EMBEDDED_LICENSE_PUBLIC_KEY } from './license.key.js';

export function createLicenseArea(deps: AreaDeps, audit: AuditArea) {
  const service = createLicenseService(deps, createLicenseStore(deps.db), audit);
  return { service, handlers: licenseHandlers(service), start: () => service.load() };
}

export type LicenseArea = ReturnType<typeof createLicenseArea>;
