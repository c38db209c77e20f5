import { createServer } from 'node:http';
import type { RouteDef } from '@svc/contract';
import type { Clock, Gate } from '@svc/platform';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Server, Socket } from 'socket.io';
import type { Caller } from '../platform/http/principal.js';
import type { FeedSink, RealtimeFeed } from './realtime.feed.js';
import { type Frame, MAX_INBOUND_BYTES } from './realtime.messages.js';
import { upgradeGuard } from './ws.auth.js';

export interface SocketIoOptions {
  feed: RealtimeFeed;
  clock: Clock;
  gate: Gate<Caller>;
  /** The contract entries of GET and POST /socket.io/ (long-polling reads and writes). */
  routes: { get: RouteDef; post: RouteDef };
  /** Packets a legacy client may have queued before it is disconnected (it reconnects to a fresh snapshot). */
  maxQueuedPackets?: number;
}

const NO_HEAD = Buffer.alloc(0);

/**
 * The legacy /socket.io/ endpoint: the same events as /ws (event name = message type, first argument =
 * its data, second = `{seq, timestamp}`), over the socket.io protocol. Every request, polling or upgrade,
 * passes the same gate as the REST API before engine.io sees it.
 */
export class SocketIoAdapter implements FeedSink {
  private io: Server | undefined;
  private starting: Promise<Server> | undefined;
  private readonly queued = new WeakMap<Socket, number>();
  private readonly maxQueued: number;
  private readonly guards: { get: ReturnType<typeof upgradeGuard>; post: ReturnType<typeof upgradeGuard> };

  constructor(private readonly opts: SocketIoOptions) {
    this.maxQueued = opts.maxQueuedPackets ?? 256;
    this.guards = {
      get: upgradeGuard(opts.gate, opts.routes.get, 'always'),
      post: upgradeGuard(opts.gate, opts.routes.post, 'always'),
    };
  }

  /** socket.io loads on the first legacy client: most installations never see one. */
  private server(): Promise<Server> {
    this.starting ??= import('socket.io').then(({ Server }) => {
      // Bound to a server that never listens: Fastify routes requests to engine.io after the gate has run.
      const io = new Server(createServer(), {
        path: '/socket.io/',
        serveClient: false,
        maxHttpBufferSize: MAX_INBOUND_BYTES,
      });
      io.on('connection', (sock) => this.onConnection(sock));
      this.io = io;
      return io;
    });
    return this.starting;
  }

  register(app: FastifyInstance): void {
    const toEngine = async (req: FastifyRequest, reply: FastifyReply) => {
      const { engine } = await this.server();
      reply.hijack();
      engine.handleRequest(req.raw as never, reply.raw as never);
    };
    const upgradeToEngine = async (req: FastifyRequest, reply: FastifyReply) => {
      if (String(req.headers.upgrade ?? '').toLowerCase() !== 'websocket') return;
      const { engine } = await this.server();
      // Taken over before @fastify/websocket's own handler; clients send no frames before the 101, so no head.
      reply.hijack();
      engine.handleUpgrade(req.raw as never, req.raw.socket as never, NO_HEAD);
    };
    void app.register(async (scope) => {
      // engine.io reads the polling body itself: Fastify must leave the stream untouched.
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('*', (_req, _payload, done) => done(null));
      for (const [route, guard] of [
        [this.opts.routes.get, this.guards.get],
        [this.opts.routes.post, this.guards.post],
      ] as const) {
        scope.route({
          method: route.method as 'GET' | 'POST',
          url: route.path,
          config: { route },
          preHandler: route.method === 'GET' ? [guard.preHandler, upgradeToEngine] : [guard.preHandler],
          handler: toEngine,
        });
      }
    });
  }

  deliver(f: Frame): void {
    const io = this.io;
    if (!io || io.engine.clientsCount === 0) return;
    for (const s of io.sockets.sockets.values()) {
      if ((this.queued.get(s) ?? 0) > this.maxQueued) s.disconnect(true);
    }
    const { type, data, seq, timestamp } = f.message;
    io.emit(type, data, { seq, timestamp });
  }

  clients(): number {
    return this.io?.engine.clientsCount ?? 0;
  }

  async close(): Promise<void> {
    await this.io?.close();
  }

  private onConnection(s: Socket): void {
    // Packets created but not yet flushed to the transport: the public way to see a client falling behind.
    this.queued.set(s, 0);
    s.conn.on('packetCreate', () => this.queued.set(s, (this.queued.get(s) ?? 0) + 1));
    s.conn.on('flush', (buf: unknown[]) => this.queued.set(s, Math.max(0, (this.queued.get(s) ?? 0) - buf.length)));
    const now = this.opts.clock.now();
    // The handshake is always a GET (polling open or direct upgrade), so its caller is in the GET guard.
    s.emit('welcome', this.guards.get.welcome(s.request), { timestamp: now });
    this.sendSnapshot(s);
    s.on('requestData', () => this.sendSnapshot(s));
  }

  private sendSnapshot(s: Socket): void {
    const m = this.opts.feed.snapshotFrame().message;
    s.emit('initialState', m.data, { seq: m.seq, timestamp: m.timestamp });
  }
}
