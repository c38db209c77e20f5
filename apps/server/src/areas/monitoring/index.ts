import type { AreaDeps } from '../area.js';
import type { NodesArea } from '../nodes/index.js';
import { createMockEstate } from './monitoring.mock.js';
import { monitoringHandlers } from './monitoring.routes.js';

export function createMonitoringArea(deps: AreaDeps, nodes: NodesArea) {
  const mock = createMockEstate({
    polls: deps.polls,
    log: deps.log,
    pauseReal: async () => {
      nodes.setReadOnly('Mock mode is on: turn it off (POST /api/system/mock-mode) before changing nodes.');
      await nodes.pause();
    },
    resumeReal: async () => {
      nodes.setReadOnly(undefined);
      await nodes.start();
    },
  });
  return { mock, handlers: monitoringHandlers(deps, mock) };
}

export type MonitoringArea = ReturnType<typeof createMonitoringArea>;
