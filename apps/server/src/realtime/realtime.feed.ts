import type { Clock } from '@svc/platform';
import type { TimerHandle, Timers } from '../platform/jobs/index.js';
import type { LiveState, StateDelta } from '../state/index.js';
import { DeltaCoalescer } from './delta.coalescer.js';
import { type Envelope, type Frame, frame, type MessageType } from './realtime.messages.js';

/** A transport that delivers frames to its connected clients (the /ws hub, the socket.io adapter). */
export interface FeedSink {
  deliver(f: Frame): void;
}

export interface FeedOptions {
  state: LiveState;
  clock: Clock;
  timers: Timers;
  /** At most one delta per window; the first change after a quiet window goes out at once. Default 100 ms. */
  flushMs?: number;
}

/**
 * Turns LiveState deltas into serialised frames: coalesced per window, serialised once, handed to every
 * sink. The full state is serialised only for clients that (re)connect, and cached until the next change.
 */
export class RealtimeFeed {
  private readonly sinks = new Set<FeedSink>();
  private readonly coalescer: DeltaCoalescer;
  private readonly flushMs: number;
  private timer: TimerHandle | undefined;
  private lastFlush = Number.NEGATIVE_INFINITY;
  private snap: Frame | undefined;
  private unsubscribe: (() => void) | undefined;
  /** Frames flushed so far (deltas and broadcasts); for tests and stats. */
  flushed = 0;

  constructor(private readonly opts: FeedOptions) {
    this.flushMs = opts.flushMs ?? 100;
    this.coalescer = new DeltaCoalescer(opts.state.snapshot().seq);
  }

  start(): void {
    this.unsubscribe ??= this.opts.state.subscribe((d) => this.onDelta(d));
  }

  stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    if (this.timer) this.opts.timers.clearTimeout(this.timer);
    this.timer = undefined;
  }

  addSink(sink: FeedSink): () => void {
    this.sinks.add(sink);
    return () => this.sinks.delete(sink);
  }

  /** The `initialState` frame for the current state; built at most once per state version. */
  snapshotFrame(): Frame {
    const { seq, state } = this.opts.state.snapshot();
    if (this.snap?.message.seq !== seq) {
      this.snap = frame({ type: 'initialState', seq, data: state, timestamp: this.opts.clock.now() });
    }
    return this.snap;
  }

  /** Sends one message to every connected client of every transport (e.g. the test notification). */
  broadcast(type: MessageType, data: unknown): void {
    this.deliver(frame({ type, data, timestamp: this.opts.clock.now() }));
  }

  /** Sends whatever is pending now (shutdown, tests); normally the window timer does this. */
  flush(): void {
    if (this.timer) this.opts.timers.clearTimeout(this.timer);
    this.timer = undefined;
    const merged = this.coalescer.take();
    if (!merged) return;
    this.lastFlush = this.opts.clock.now();
    const msg: Envelope = { type: 'rawData', seq: merged.seq, data: merged.data, timestamp: this.lastFlush };
    this.deliver(frame(msg));
  }

  private onDelta(d: StateDelta): void {
    this.snap = undefined; // release the old full-state bytes as soon as they are stale
    this.coalescer.add(d);
    if (this.timer) return;
    const wait = Math.max(0, this.lastFlush + this.flushMs - this.opts.clock.now());
    this.timer = this.opts.timers.setTimeout(() => {
      this.timer = undefined;
      this.flush();
    }, wait);
  }

  private deliver(f: Frame): void {
    this.flushed++;
    for (const s of this.sinks) s.deliver(f);
  }
}
