import type { FakeClock } from '@svc/platform';

/** Timer source as a dependency: production uses `systemTimers`, tests drive `FakeTimers` with a fake clock. */
export interface Timers {
  setTimeout(fn: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}

export type TimerHandle = { readonly id: unknown };

export const systemTimers: Timers = {
  setTimeout(fn, ms) {
    const t = setTimeout(fn, Math.max(0, ms));
    // Poll timers must never keep the process alive on shutdown.
    t.unref();
    return { id: t };
  },
  clearTimeout(handle) {
    clearTimeout(handle.id as NodeJS.Timeout);
  },
};

interface Pending {
  id: number;
  at: number;
  fn: () => void;
}

/** Let promise chains and I/O callbacks settle (a macrotask turn, not a sleep). */
export const settle = (turns = 5): Promise<void> =>
  (async () => {
    for (let i = 0; i < turns; i++) await new Promise<void>((r) => setImmediate(r));
  })();

/** Deterministic timers bound to a FakeClock: `advance` fires due callbacks in time order. */
export class FakeTimers implements Timers {
  private seq = 0;
  private pending: Pending[] = [];

  constructor(readonly clock: FakeClock) {}

  setTimeout(fn: () => void, ms: number): TimerHandle {
    const id = ++this.seq;
    this.pending.push({ id, at: this.clock.now() + Math.max(0, ms), fn });
    return { id };
  }

  clearTimeout(handle: TimerHandle): void {
    this.pending = this.pending.filter((p) => p.id !== handle.id);
  }

  get size(): number {
    return this.pending.length;
  }

  /** Time of the earliest pending timer, if any. */
  nextAt(): number | undefined {
    let min: number | undefined;
    for (const p of this.pending) if (min === undefined || p.at < min) min = p.at;
    return min;
  }

  /** Move time forward by `ms`, firing every timer that falls due, and let async work settle between them. */
  async advance(ms: number): Promise<void> {
    const target = this.clock.now() + ms;
    await settle();
    for (;;) {
      const due = this.pending.filter((p) => p.at <= target).sort((a, b) => a.at - b.at || a.id - b.id)[0];
      if (!due) break;
      this.pending = this.pending.filter((p) => p !== due);
      if (due.at > this.clock.now()) this.clock.set(due.at);
      due.fn();
      await settle();
    }
    this.clock.set(target);
    await settle();
  }
}
