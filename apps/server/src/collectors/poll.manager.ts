import type { Clock, Logger } from '@svc/platform';
import { LoopScheduler, type Timers } from '../platform/jobs/index.js';
import type { ClientDeps } from './api.factory.js';
import type { Collector, CollectorFactory, ConnectionTest, InstanceConfig, PollResult } from './collector.js';
import type { NodeKind } from './model.js';
import { buildHealth, type SchedulerHealth } from './poll.health.js';
import { defaultPollPolicy, type PollPolicyConfig, PollState } from './poll.policy.js';

/** Where poll outcomes go (the live state implements it); keeps collectors free of state code. */
export interface PollSink {
  applyPoll(instanceId: string, result: PollResult): void;
  applyFailure(instanceId: string, kind: NodeKind, error: unknown, consecutiveFailures: number): void;
  removeInstance(instanceId: string): void;
}

export const defaultIntervals: Record<NodeKind, number> = { hv: 10_000, bak: 60_000, mail: 60_000 };
const MIN_INTERVAL = 10_000;
const MAX_INTERVAL = 3_600_000;

export interface PollManagerOptions {
  clock: Clock;
  timers: Timers;
  factories: Record<NodeKind, CollectorFactory>;
  sink: PollSink;
  logger?: Logger;
  intervals?: Partial<Record<NodeKind, number>>;
  /** Polls running at once across all instances (default 32). */
  concurrency?: number;
  /** Gap between the first polls of successive instances (default 500 ms). */
  staggerMs?: number;
  /** Hard bound on one poll (default 3 min). */
  pollTimeoutMs?: number;
  policy?: Partial<PollPolicyConfig>;
  random?: () => number;
  dispatcherFor?: ClientDeps['dispatcherFor'];
}

export interface ManagedInstance {
  cfg: InstanceConfig;
  collector: Collector;
  state: PollState;
  warnings: string[];
}

const clampInterval = (ms: number) => Math.min(MAX_INTERVAL, Math.max(MIN_INTERVAL, ms));

/** Runs one poll loop per configured instance and feeds results to the sink; changes apply at runtime. */
export class PollManager {
  private readonly scheduler: LoopScheduler;
  private readonly managed = new Map<string, ManagedInstance>();
  private readonly policy: PollPolicyConfig;
  private added = 0;

  constructor(private readonly opts: PollManagerOptions) {
    this.policy = { ...defaultPollPolicy, ...opts.policy };
    this.scheduler = new LoopScheduler({
      clock: opts.clock,
      timers: opts.timers,
      concurrency: opts.concurrency ?? 32,
      onError: (key, err) => opts.logger?.error({ instance: key, err }, 'poll scheduling failed'),
    });
  }

  intervalOf(cfg: InstanceConfig): number {
    return clampInterval(cfg.intervalMs ?? this.opts.intervals?.[cfg.kind] ?? defaultIntervals[cfg.kind]);
  }

  /** Add or replace an instance; a disabled one is removed. The first poll is staggered. */
  upsert(cfg: InstanceConfig): void {
    const old = this.managed.get(cfg.id);
    if (cfg.enabled === false) {
      if (old) void this.remove(cfg.id);
      return;
    }
    if (old) void old.collector.close();
    const collector = this.opts.factories[cfg.kind](cfg, this.collectorDeps());
    const m: ManagedInstance = { cfg, collector, state: new PollState(this.policy, this.opts.random), warnings: [] };
    this.managed.set(cfg.id, m);
    const stagger = ((this.added++ * (this.opts.staggerMs ?? 500)) % this.intervalOf(cfg)) + 0;
    this.scheduler.upsert(cfg.id, this.jobFor(m), stagger);
  }

  async remove(id: string): Promise<void> {
    const m = this.managed.get(id);
    this.scheduler.remove(id);
    this.managed.delete(id);
    this.opts.sink.removeInstance(id);
    if (m) await m.collector.close();
  }

  /** Poll now (or join the poll in progress); also the way to retry a dead-lettered instance. */
  pollNow(id: string): Promise<void> {
    return this.scheduler.trigger(id);
  }

  /** One-off connection test with a throwaway collector (add/test-connection routes). */
  async test(cfg: InstanceConfig, signal: AbortSignal = AbortSignal.timeout(30_000)): Promise<ConnectionTest> {
    const collector = this.opts.factories[cfg.kind](cfg, this.collectorDeps());
    try {
      return await collector.test(signal);
    } finally {
      await collector.close();
    }
  }

  get(id: string): ManagedInstance | undefined {
    return this.managed.get(id);
  }

  list(): ManagedInstance[] {
    return [...this.managed.values()];
  }

  health(): SchedulerHealth {
    return buildHealth(this.opts.clock.now(), this.list(), this.scheduler.entries(), (cfg) => this.intervalOf(cfg));
  }

  async stop(): Promise<void> {
    await this.scheduler.stop();
    await Promise.allSettled([...this.managed.values()].map((m) => m.collector.close()));
  }

  private isStale(m: ManagedInstance): boolean {
    return this.managed.get(m.cfg.id) !== m;
  }

  private collectorDeps() {
    const { clock, timers, logger, dispatcherFor } = this.opts;
    return { clock, timers, ...(logger ? { logger } : {}), ...(dispatcherFor ? { dispatcherFor } : {}) };
  }

  private jobFor(m: ManagedInstance) {
    const { clock, sink, logger } = this.opts;
    return {
      timeoutMs: this.opts.pollTimeoutMs ?? 180_000,
      run: async (signal: AbortSignal) => {
        m.state.beforeRun(clock.now());
        const result = await m.collector.poll(signal);
        if (this.isStale(m)) return;
        m.warnings = result.warnings;
        sink.applyPoll(m.cfg.id, result);
      },
      nextDelay: (outcome: { ok: boolean; error?: unknown }) => {
        // Replaced or removed while polling: drop the outcome; a replacement polls at once.
        if (this.isStale(m)) return 0;
        const now = clock.now();
        if (outcome.ok) return m.state.onSuccess(now, this.intervalOf(m.cfg));
        const delay = m.state.onFailure(now, outcome.error);
        // The message is the error's own text; credentials never appear in API error messages.
        logger?.warn({ instance: m.cfg.id, kind: m.cfg.kind, error: m.state.lastError }, 'poll failed');
        sink.applyFailure(m.cfg.id, m.cfg.kind, outcome.error, m.state.consecutiveFailures);
        return delay;
      },
    };
  }
}
