import type { nodeRoutes } from '@svc/contract';
import type { Handlers } from '@svc/platform';
import type { Caller } from '../../platform/http/principal.js';
import type { NodesService } from './nodes.service.js';

export function nodesHandlers(service: NodesService): Handlers<typeof nodeRoutes, Caller> {
  return {
    listNodes: (ctx) => service.listNodes(ctx),
    addNode: (ctx, { body }) => service.addNode(ctx, body),
    testNodeConnection: (_ctx, { body }) => service.testConnection(body),
    testNodeConfig: (_ctx, { body }) => service.testConfig(body),
    updateNode: (ctx, { params, body }) => service.updateNode(ctx, params.id, body),
    deleteNode: async (ctx, { params }) => {
      await service.deleteNode(ctx, params.id);
      return undefined;
    },
    testSavedNode: (ctx, { params }) => service.testSaved(ctx, params.id),
    refreshNodeCluster: (ctx, { params }) => service.refreshCluster(ctx, params.id),
  };
}
