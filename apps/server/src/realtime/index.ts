import { realtimeRoutes } from '@svc/contract';
import type { Clock, Gate, Logger } from '@svc/platform';
import type { FastifyInstance } from 'fastify';
import type { Caller } from '../platform/http/principal.js';
import { systemTimers, type Timers } from '../platform/jobs/index.js';
import type { LiveState } from '../state/index.js';
import { RealtimeFeed } from './realtime.feed.js';
import type { MessageType } from './realtime.messages.js';
import { SocketIoAdapter } from './socketio.adapter.js';
import { type HubStats, WsHub } from './ws.hub.js';
import { registerWsRoute } from './ws.routes.js';

export type { DeltaData, Envelope, MessageType, WelcomeData } from './realtime.messages.js';
export type { HubStats } from './ws.hub.js';
export type { RealtimeFeed };

export interface RealtimeOptions {
  timers?: Timers;
  /** Coalescing window for deltas (ms, default 100). */
  flushMs?: number;
  /** Per-client send buffer bound on /ws before it stops getting deltas (default 4 MiB). */
  maxBufferedBytes?: number;
  /** WebSocket ping interval (default 30 s). */
  pingMs?: number;
  /** How long a lagging /ws client may stay behind before it is disconnected (default 60 s). */
  maxLagMs?: number;
}

export interface RealtimeDeps {
  state: LiveState;
  clock: Clock;
  log: Logger;
  options?: RealtimeOptions;
}

export interface Realtime {
  feed: RealtimeFeed;
  hub: WsHub;
  /** Sends one message to every connected client, /ws and socket.io alike (e.g. the test notification). */
  broadcast(type: MessageType, data: unknown): void;
  stats(): HubStats & { socketIoClients: number };
  /** Binds /ws and /socket.io/ behind the gate and starts the feed; stops everything when the app closes. */
  register(app: FastifyInstance, gate: Gate<Caller>): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The live-push hub: `broadcast` for areas, `stats` for health and tests. */
    realtime: Realtime;
  }
}

/**
 * Live push: the /ws hub and the legacy /socket.io/ adapter, fed by one coalescing feed over the LiveState.
 * Create it before the areas (they may broadcast), register it on the app once the gate exists.
 */
export function createRealtime(deps: RealtimeDeps): Realtime {
  const o = deps.options ?? {};
  const timers = o.timers ?? systemTimers;
  const feed = new RealtimeFeed({ state: deps.state, clock: deps.clock, timers, flushMs: o.flushMs });
  const hub = new WsHub({ feed, clock: deps.clock, timers, log: deps.log, ...o });
  feed.addSink(hub);
  let socketIo: SocketIoAdapter | undefined;
  const realtime: Realtime = {
    feed,
    hub,
    broadcast(type, data) {
      feed.broadcast(type, data);
    },
    stats: () => ({ ...hub.stats(), socketIoClients: socketIo?.clients() ?? 0 }),
    async register(app, gate) {
      app.decorate('realtime', realtime);
      await registerWsRoute(app, hub, gate, realtimeRoutes.liveWebSocket);
      socketIo = new SocketIoAdapter({
        feed,
        clock: deps.clock,
        gate,
        routes: { get: realtimeRoutes.legacySocketIo, post: realtimeRoutes.legacySocketIoSend },
      });
      socketIo.register(app);
      feed.addSink(socketIo);
      feed.start();
      app.addHook('onClose', async () => {
        feed.stop();
        hub.close();
        await socketIo?.close();
      });
    },
  };
  return realtime;
}
