import { setMaxListeners } from 'node:events';
import type { Clock } from '@svc/platform';
import { createLimiter } from './limit.js';
import type { TimerHandle, Timers } from './timers.js';

export interface JobOutcome {
  ok: boolean;
  error?: unknown;
  startedAt: number;
  finishedAt: number;
}

/** One recurring job. The job decides its own cadence (`nextDelay`), so retry policy stays out of here. */
export interface LoopJob {
  run(signal: AbortSignal): Promise<void>;
  nextDelay(outcome: JobOutcome): number;
  /** Hard bound on one run; the signal aborts when it elapses. */
  timeoutMs?: number;
}

export interface LoopEntry {
  key: string;
  running: boolean;
  nextRunAt: number | undefined;
  lastStartedAt: number | undefined;
}

export interface LoopSchedulerOptions {
  clock: Clock;
  timers: Timers;
  /** How many jobs may run at once across all keys. */
  concurrency: number;
  onError?: (key: string, error: unknown) => void;
}

interface Slot {
  job: LoopJob;
  timer: TimerHandle | undefined;
  nextRunAt: number | undefined;
  running: Promise<void> | undefined;
  abort: AbortController | undefined;
  lastStartedAt: number | undefined;
  removed: boolean;
}

export class TimeoutError extends Error {
  constructor(ms: number) {
    super(`run exceeded ${ms} ms`);
    this.name = 'TimeoutError';
  }
}

/** One loop per key: a key never runs twice at once, the next run is planned only after the previous ends. */
export class LoopScheduler {
  private readonly slots = new Map<string, Slot>();
  private readonly limiter;
  private stopped = false;

  constructor(private readonly opts: LoopSchedulerOptions) {
    this.limiter = createLimiter(opts.concurrency);
  }

  /** Add a job, or replace the job of an existing key (replanned to `firstDelayMs` unless running). */
  upsert(key: string, job: LoopJob, firstDelayMs = 0): void {
    const existing = this.slots.get(key);
    if (existing) {
      existing.job = job;
      if (!existing.running) this.plan(key, existing, firstDelayMs);
      return;
    }
    const slot: Slot = {
      job,
      timer: undefined,
      nextRunAt: undefined,
      running: undefined,
      abort: undefined,
      lastStartedAt: undefined,
      removed: false,
    };
    this.slots.set(key, slot);
    this.plan(key, slot, firstDelayMs);
  }

  /** Remove a key; a run in progress is aborted. */
  remove(key: string): void {
    const slot = this.slots.get(key);
    if (!slot) return;
    slot.removed = true;
    if (slot.timer) this.opts.timers.clearTimeout(slot.timer);
    slot.abort?.abort(new Error('job removed'));
    this.slots.delete(key);
  }

  /** Run a key now (or join the run in progress); resolves when that run has finished. */
  trigger(key: string): Promise<void> {
    const slot = this.slots.get(key);
    return slot ? this.start(key, slot) : Promise.resolve();
  }

  has(key: string): boolean {
    return this.slots.has(key);
  }

  entries(): LoopEntry[] {
    return [...this.slots].map(([key, s]) => ({
      key,
      running: s.running !== undefined,
      nextRunAt: s.nextRunAt,
      lastStartedAt: s.lastStartedAt,
    }));
  }

  get active(): number {
    return this.limiter.active;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    const running: Promise<void>[] = [];
    for (const s of this.slots.values()) {
      if (s.timer) this.opts.timers.clearTimeout(s.timer);
      s.abort?.abort(new Error('scheduler stopped'));
      if (s.running) running.push(s.running);
    }
    await Promise.allSettled(running);
  }

  private plan(key: string, slot: Slot, delayMs: number): void {
    const { timers, clock } = this.opts;
    if (slot.timer) timers.clearTimeout(slot.timer);
    slot.timer = undefined;
    if (this.stopped || slot.removed) return;
    const delay = Math.max(0, delayMs);
    slot.nextRunAt = clock.now() + delay;
    slot.timer = timers.setTimeout(() => {
      slot.timer = undefined;
      void this.start(key, slot);
    }, delay);
  }

  private start(key: string, slot: Slot): Promise<void> {
    if (slot.running) return slot.running;
    if (slot.timer) this.opts.timers.clearTimeout(slot.timer);
    slot.timer = undefined;
    slot.nextRunAt = undefined;
    const run: Promise<void> = this.limiter
      .run(() => this.runOnce(key, slot))
      .finally(() => {
        if (slot.running === run) slot.running = undefined;
      });
    slot.running = run;
    return run;
  }

  private async runOnce(key: string, slot: Slot): Promise<void> {
    if (slot.removed || this.stopped) return;
    const { clock } = this.opts;
    // The job that ran decides what comes next, even if upsert replaced it meanwhile.
    const job = slot.job;
    const abort = new AbortController();
    // One run fans its signal out to many concurrent requests; that is not a listener leak.
    setMaxListeners(10_000, abort.signal);
    slot.abort = abort;
    const startedAt = clock.now();
    slot.lastStartedAt = startedAt;
    let outcome: JobOutcome;
    try {
      await this.execute(slot, job, abort.signal);
      outcome = { ok: true, startedAt, finishedAt: clock.now() };
    } catch (error) {
      outcome = { ok: false, error, startedAt, finishedAt: clock.now() };
    }
    slot.abort = undefined;
    let delay: number;
    try {
      delay = job.nextDelay(outcome);
    } catch (error) {
      this.opts.onError?.(key, error);
      delay = 60_000;
    }
    this.plan(key, slot, delay);
  }

  private async execute(slot: Slot, job: LoopJob, signal: AbortSignal): Promise<void> {
    const { timeoutMs } = job;
    if (!timeoutMs) return job.run(signal);
    const { timers } = this.opts;
    let handle: TimerHandle | undefined;
    const timeout = new Promise<never>((_, reject) => {
      handle = timers.setTimeout(() => {
        const err = new TimeoutError(timeoutMs);
        slot.abort?.abort(err);
        reject(err);
      }, timeoutMs);
    });
    try {
      return await Promise.race([job.run(signal), timeout]);
    } finally {
      if (handle) timers.clearTimeout(handle);
    }
  }
}
