import type { AreaDeps } from '../area.js';
import type { AuditArea } from '../audit/index.js';
import { metadataHandlers } from './metadata.routes.js';
import { createMetadataService } from './metadata.service.js';
import { createMetadataStore } from './metadata.store.js';

/** Notes, tags and custom URLs of hosts, guests, runtime containers and runtime hosts. */
export function createMetadataArea(deps: AreaDeps, audit: AuditArea) {
  const service = createMetadataService(deps, createMetadataStore(deps.db), audit);
  return {
    service,
    handlers: metadataHandlers(service),
    /** Metadata tags of an item (default organization), for the resources view's tag filter. */
    tagsFor: service.tagsFor,
    onChange: service.onChange,
    start: () => service.load(),
  };
}

export type MetadataArea = ReturnType<typeof createMetadataArea>;
