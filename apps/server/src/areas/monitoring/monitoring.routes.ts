import type { monitoringRoutes } from '@svc/contract';
import type { Handlers } from '@svc/platform';
import type { Caller } from '../../platform/http/principal.js';
import type { AreaDeps } from '../area.js';
import type { MockEstate } from './monitoring.mock.js';
import { renderSimpleStats } from './monitoring.simple-stats.js';

export function monitoringHandlers(deps: AreaDeps, mock: MockEstate): Handlers<typeof monitoringRoutes, Caller> {
  return {
    getState: () => ({ ...deps.state.snapshot().state, mockMode: mock.enabled() }),
    getSchedulerHealth: () => ({ ...deps.polls.health(), mockMode: mock.enabled() }),
    getSimpleStats: () => renderSimpleStats(deps.state.snapshot().state, mock.enabled(), deps.clock.now()),
    sendTestNotification: (ctx, { body }) => {
      const message = body.message ?? 'Test notification from svc';
      deps.broadcast('test', { message, from: ctx.principal?.username, timestamp: deps.clock.now() });
      return { success: true as const, message: 'Test event sent to every connected client.' };
    },
    getMockMode: () => mock.view(),
    setMockMode: (_ctx, { body }) => mock.set(body.enabled, body),
    updateMockMode: (_ctx, { body }) => mock.set(body.enabled, body),
  };
}
