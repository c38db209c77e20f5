import fastifyWebsocket from '@fastify/websocket';
import type { RouteDef } from '@svc/contract';
import type { Gate } from '@svc/platform';
import type { FastifyInstance } from 'fastify';
import type { Caller } from '../platform/http/principal.js';
import { MAX_INBOUND_BYTES } from './realtime.messages.js';
import { upgradeGuard } from './ws.auth.js';
import type { WsHub } from './ws.hub.js';

/**
 * Binds GET /ws. The gate runs as a preHandler, so a refused upgrade is answered 401/403 with the usual
 * JSON error body before the protocol switch; a plain GET that passes the gate gets 426.
 */
export async function registerWsRoute(app: FastifyInstance, hub: WsHub, gate: Gate<Caller>, route: RouteDef) {
  await app.register(fastifyWebsocket, {
    options: { maxPayload: MAX_INBOUND_BYTES, perMessageDeflate: false },
  });
  const guard = upgradeGuard(gate, route, 'upgrade');
  app.route({
    method: 'GET',
    url: route.path,
    config: { route },
    preHandler: guard.preHandler,
    handler: async (_req, reply) => {
      reply.code(426).header('upgrade', 'websocket').type('application/json; charset=utf-8');
      return { error: 'upgrade_required', message: 'This endpoint speaks WebSocket: send an upgrade request.' };
    },
    wsHandler: (socket, req) => hub.accept(socket, guard.welcome(req.raw)),
  });
}
