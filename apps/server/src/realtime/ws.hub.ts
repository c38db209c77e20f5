import type { Clock, Logger } from '@svc/platform';
import type { WebSocket } from 'ws';
import type { TimerHandle, Timers } from '../platform/jobs/index.js';
import type { FeedSink, RealtimeFeed } from './realtime.feed.js';
import { type Frame, frame, parseInbound, type WelcomeData } from './realtime.messages.js';

export interface HubOptions {
  feed: RealtimeFeed;
  clock: Clock;
  timers: Timers;
  log: Logger;
  /** A client whose unsent bytes exceed this (plus its last snapshot) stops getting deltas. Default 4 MiB. */
  maxBufferedBytes?: number;
  /** Ping interval; a client that has not answered the previous ping by the next one is dropped. Default 30 s. */
  pingMs?: number;
  /** A lagging client that has not drained within this time is disconnected. Default 60 s. */
  maxLagMs?: number;
}

interface Client {
  ws: WebSocket;
  alive: boolean;
  /** Skipping deltas until its buffer drains, then it gets a fresh snapshot. */
  laggingSince: number | undefined;
  /** Size of the last snapshot sent: a snapshot may sit in the buffer without counting as lag. */
  slack: number;
}

export interface HubStats {
  clients: number;
  lagging: number;
  resyncs: number;
  dropped: number;
}

/** Close code for clients dropped for lagging or idleness (1013 "try again later"): they should reconnect. */
export const CLOSE_TRY_AGAIN = 1013;

/**
 * The /ws fan-out: every frame is sent as the same bytes to every client. A slow client is never queued
 * for without bound: past the buffer limit it misses deltas, and once drained it is resynced with a snapshot.
 */
export class WsHub implements FeedSink {
  private readonly clients = new Set<Client>();
  private readonly maxBuffered: number;
  private readonly maxLagMs: number;
  private heartbeat: TimerHandle | undefined;
  private counters = { resyncs: 0, dropped: 0 };

  constructor(private readonly opts: HubOptions) {
    this.maxBuffered = opts.maxBufferedBytes ?? 4 * 1024 * 1024;
    this.maxLagMs = opts.maxLagMs ?? 60_000;
    this.scheduleHeartbeat();
  }

  accept(ws: WebSocket, welcome: WelcomeData): void {
    const c: Client = { ws, alive: true, laggingSince: undefined, slack: 0 };
    this.clients.add(c);
    ws.on('pong', () => {
      c.alive = true;
    });
    ws.on('message', (raw, isBinary) => {
      c.alive = true;
      if (!isBinary) this.onMessage(c, raw.toString());
    });
    ws.on('close', () => this.clients.delete(c));
    ws.on('error', () => this.clients.delete(c));
    this.send(c, frame({ type: 'welcome', data: welcome, timestamp: this.opts.clock.now() }));
    this.sendSnapshot(c);
  }

  deliver(f: Frame): void {
    for (const c of this.clients) {
      if (this.keepUp(c)) this.send(c, f);
    }
  }

  stats(): HubStats {
    let lagging = 0;
    for (const c of this.clients) if (c.laggingSince !== undefined) lagging++;
    return { clients: this.clients.size, lagging, ...this.counters };
  }

  /** Bytes queued for each client (tests and benchmarks check the bound). */
  buffered(): number[] {
    return [...this.clients].map((c) => c.ws.bufferedAmount);
  }

  close(): void {
    if (this.heartbeat) this.opts.timers.clearTimeout(this.heartbeat);
    this.heartbeat = undefined;
    for (const c of this.clients) c.ws.close(1001, 'server shutting down');
    this.clients.clear();
  }

  /** Whether the client may take one more frame now; resyncs or drops it when it has fallen behind. */
  private keepUp(c: Client): boolean {
    const now = this.opts.clock.now();
    if (c.laggingSince !== undefined) {
      if (c.ws.bufferedAmount === 0) {
        c.laggingSince = undefined;
        this.counters.resyncs++;
        this.sendSnapshot(c);
      } else if (now - c.laggingSince > this.maxLagMs) {
        this.drop(c, 'too slow to keep up');
      }
      return false;
    }
    if (c.ws.bufferedAmount > this.maxBuffered + c.slack) {
      c.laggingSince = now;
      return false;
    }
    return true;
  }

  private onMessage(c: Client, raw: string): void {
    const m = parseInbound(raw);
    if (m?.type === 'ping') this.send(c, frame({ type: 'pong', data: {}, timestamp: this.opts.clock.now() }));
    else if (m?.type === 'requestData') this.sendSnapshot(c);
  }

  private sendSnapshot(c: Client): void {
    const f = this.opts.feed.snapshotFrame();
    c.slack = f.bytes.length;
    this.send(c, f);
  }

  private send(c: Client, f: Frame): void {
    if (c.ws.readyState === c.ws.OPEN) c.ws.send(f.bytes, { binary: false });
  }

  private drop(c: Client, why: string): void {
    this.counters.dropped++;
    this.clients.delete(c);
    this.opts.log.info({ why }, 'realtime: dropping WebSocket client');
    c.ws.terminate();
  }

  private scheduleHeartbeat(): void {
    this.heartbeat = this.opts.timers.setTimeout(() => {
      this.beat();
      this.scheduleHeartbeat();
    }, this.opts.pingMs ?? 30_000);
  }

  /** Drops clients that missed the last ping, pings the rest, and gives lagging clients a chance to resync. */
  private beat(): void {
    for (const c of [...this.clients]) {
      if (!c.alive) {
        this.drop(c, 'no pong since the last ping');
        continue;
      }
      c.alive = false;
      c.ws.ping();
      if (c.laggingSince !== undefined) this.keepUp(c);
    }
  }
}
