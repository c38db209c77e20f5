import type { AreaDeps } from '../area.js';
import type { AuditArea } from '../audit/index.js';
import { resourcesHandlers } from './resources.routes.js';
import { createResourcesService, type HistoryReader } from './resources.service.js';
import { createResourcesStore } from './resources.store.js';
import { ResourceView, type TagKind } from './resources.view.js';

export type { MetricsTarget, Resource, ResourceStatus, ResourceType } from './resources.model.js';
export type { HistoryReader } from './resources.service.js';

export interface ResourcesAreaDeps {
  audit: AuditArea;
  /** Metrics history (the metrics area's getHistory). */
  history: HistoryReader;
  /** Metadata tags of an item; with onMetadataChange so the view refreshes. */
  tagsFor: (kind: TagKind, id: string) => readonly string[] | undefined;
  onMetadataChange: (fn: () => void) => () => void;
}

/** Unified resources: one record per real thing over every source, with manual merge overrides. */
export function createResourcesArea(deps: AreaDeps, inputs: ResourcesAreaDeps) {
  const store = createResourcesStore(deps.db);
  let overrides: () => ReturnType<ReturnType<typeof createResourcesService>['overrides']> = () => [];
  const view = new ResourceView({ state: deps.state, overrides: () => overrides(), tagsFor: inputs.tagsFor });
  const service = createResourcesService({ deps, store, view, audit: inputs.audit, history: inputs.history });
  overrides = service.overrides;
  inputs.onMetadataChange(() => view.invalidate());
  return {
    service,
    handlers: resourcesHandlers(service),
    /** The merged resources now (cached until the next change): for exposition and other readers. */
    current: () => view.get().all,
    start: () => service.load(),
  };
}

export type ResourcesArea = ReturnType<typeof createResourcesArea>;
