import { z } from 'zod';
import { defineRoute } from '../route.js';

const wsQuery = z.object({
  token: z
    .string()
    .optional()
    .describe(
      'API token (scope monitoring:read), accepted on the WebSocket upgrade only, for clients that cannot set headers',
    ),
});

const socketIoQuery = z.object({
  EIO: z.string().optional().describe('engine.io protocol revision (4)'),
  transport: z.enum(['polling', 'websocket']).optional(),
  sid: z.string().optional().describe('engine.io session id, after the handshake'),
  token: z.string().optional().describe('API token (scope monitoring:read), for clients that cannot set headers'),
});

const socketIoNote =
  'socket.io (engine.io v4) endpoint for legacy clients: the same events as /ws, with the message type as the event name. See docs/realtime.md.';

/**
 * The live-push endpoints. Their connection is taken over by a transport (responseKind `upgrade`), so
 * `bindRoutes` leaves them to the realtime module, which runs the same access gate before switching protocols.
 */
export const realtimeRoutes = {
  liveWebSocket: defineRoute({
    method: 'GET',
    path: '/ws',
    summary: 'Live state over WebSocket: welcome, one initialState, then deltas',
    description:
      'Upgrade to a WebSocket. Authenticate with the svc_session cookie, X-API-Token, Authorization: Bearer, or ?token= on the upgrade. Messages are JSON `{type, data, timestamp, seq?}`; see docs/realtime.md. A plain GET with valid credentials answers 426.',
    tag: 'Realtime',
    access: 'auth',
    scopes: ['monitoring:read'],
    query: wsQuery,
    responseKind: 'upgrade',
  }),
  legacySocketIo: defineRoute({
    method: 'GET',
    path: '/socket.io/',
    summary: 'Legacy socket.io endpoint (handshake, long-polling reads, WebSocket upgrade)',
    description: socketIoNote,
    tag: 'Realtime',
    access: 'auth',
    scopes: ['monitoring:read'],
    query: socketIoQuery,
    responseKind: 'upgrade',
  }),
  legacySocketIoSend: defineRoute({
    method: 'POST',
    path: '/socket.io/',
    summary: 'Legacy socket.io endpoint (long-polling writes)',
    description: socketIoNote,
    tag: 'Realtime',
    access: 'auth',
    scopes: ['monitoring:read'],
    query: socketIoQuery,
    responseKind: 'upgrade',
  }),
} as const;
