import { z } from 'zod';
import { defineRoute } from '../route.js';

export const mockModeView = z
  .object({
    enabled: z.boolean(),
    nodes: z.number().int().describe('Simulated hv nodes while enabled'),
    guestsPerNode: z.number().int(),
  })
  .meta({ id: 'MockMode' });

const read = { access: 'auth', scopes: ['monitoring:read'], tag: 'Monitoring' } as const;

export const monitoringRoutes = {
  getState: defineRoute({
    ...read,
    method: 'GET',
    path: '/api/state',
    summary: 'The full live state: nodes, guests, containers, storage, backup servers, mail gateways, backups',
    response: z.record(z.string(), z.unknown()).meta({ id: 'State' }),
  }),
  getSchedulerHealth: defineRoute({
    ...read,
    method: 'GET',
    path: '/api/monitoring/scheduler/health',
    summary: 'Poll scheduler: queue, dead-letter queue, circuit breakers, staleness, per-instance status',
    response: z.record(z.string(), z.unknown()).meta({ id: 'SchedulerHealth' }),
  }),
  getSimpleStats: defineRoute({
    ...read,
    method: 'GET',
    path: '/simple-stats',
    summary: 'A small HTML status page of the live state',
    responseKind: 'html',
  }),
  sendTestNotification: defineRoute({
    method: 'POST',
    path: '/api/test-notification',
    summary: 'Broadcast a test event to every connected WebSocket client',
    tag: 'Monitoring',
    access: 'auth',
    body: z.object({ message: z.string().max(500).optional() }),
    response: z.object({ success: z.literal(true), message: z.string() }),
  }),
  getMockMode: defineRoute({
    method: 'GET',
    path: '/api/system/mock-mode',
    summary: 'Whether the state shows a simulated demo estate instead of the real one',
    tag: 'System',
    access: 'auth',
    response: mockModeView,
  }),
  setMockMode: defineRoute({
    method: 'POST',
    path: '/api/system/mock-mode',
    summary: 'Turn the simulated demo estate on or off (development and demos only)',
    tag: 'System',
    access: 'auth',
    scopes: ['settings:write'],
    body: z.object({
      enabled: z.boolean(),
      nodes: z.number().int().min(1).max(50).optional(),
      guestsPerNode: z.number().int().min(0).max(200).optional(),
    }),
    response: mockModeView,
  }),
  updateMockMode: defineRoute({
    method: 'PUT',
    path: '/api/system/mock-mode',
    summary: 'Same as POST',
    tag: 'System',
    access: 'auth',
    scopes: ['settings:write'],
    body: z.object({
      enabled: z.boolean(),
      nodes: z.number().int().min(1).max(50).optional(),
      guestsPerNode: z.number().int().min(0).max(200).optional(),
    }),
    response: mockModeView,
  }),
} as const;
