import type { AreaDeps } from '../area.js';
import { createDocs } from './system.docs.js';
import { systemHandlers } from './system.routes.js';
import { createSystemService } from './system.service.js';
import { createSystemStore } from './system.store.js';

export function createSystemArea(deps: AreaDeps, isMockMode: () => boolean = () => false) {
  const service = createSystemService(deps, createSystemStore(deps.db), isMockMode);
  return { service, handlers: systemHandlers(service, createDocs(), deps.openapi) };
}
