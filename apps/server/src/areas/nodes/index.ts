import type { AreaDeps } from '../area.js';
import type { AuditArea } from '../audit/index.js';
import { nodesHandlers } from './nodes.routes.js';
import { createNodesService, type NodeRuntime } from './nodes.service.js';
import { createSetupService } from './nodes.setup.js';
import { setupHandlers } from './nodes.setup.routes.js';
import { createNodesStore } from './nodes.store.js';
import { createTransferService } from './nodes.transfer.js';

export type { NodeRuntime } from './nodes.service.js';

export function createNodesArea(deps: AreaDeps, audit: AuditArea, runtime: NodeRuntime) {
  const store = createNodesStore(deps.db);
  const service = createNodesService(deps, store, audit, runtime);
  const setup = createSetupService(deps, store, service);
  const transfer = createTransferService(deps, store, service, audit, runtime);
  return {
    service,
    handlers: { ...nodesHandlers(service), ...setupHandlers(setup, transfer) },
    /** Start polling every configured instance. */
    start: () => service.loadAll(),
    /** Stop polling every configured instance (mock mode); `start` resumes. */
    pause: () => service.unloadAll(),
    /** Node changes are refused while this says so (mock mode would mix real and simulated instances). */
    setReadOnly: (why: string | undefined) => service.setReadOnly(why),
  };
}

export type NodesArea = ReturnType<typeof createNodesArea>;
