import { FakeClock } from '@svc/platform';
import { describe, expect, it } from 'vitest';
import { FakeTimers } from '../platform/jobs/index.js';
import { ApiError } from './api.errors.js';
import type { Collector, CollectorFactory, InstanceConfig, PollResult } from './collector.js';
import type { NodeKind } from './model.js';
import { PollManager, type PollSink } from './poll.manager.js';

type Behaviour = () => Promise<void>;

function harness(staggerMs = 500) {
  const clock = new FakeClock(0);
  const timers = new FakeTimers(clock);
  const behaviour = new Map<string, Behaviour>();
  const polls: Array<{ id: string; at: number }> = [];
  const events: string[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const factory: CollectorFactory = (cfg) => {
    const c: Collector = {
      kind: cfg.kind,
      async poll() {
        polls.push({ id: cfg.id, at: clock.now() });
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        try {
          await (behaviour.get(cfg.id) ?? (async () => {}))();
        } finally {
          inFlight--;
        }
        return { kind: 'mail', at: clock.now(), warnings: [] } as unknown as PollResult;
      },
      test: async () => ({ kind: cfg.kind, version: '1' }),
      endpoints: () => [],
      close: async () => void events.push(`close:${cfg.id}`),
    };
    return c;
  };
  const factories: Record<NodeKind, CollectorFactory> = { hv: factory, bak: factory, mail: factory };
  const sink: PollSink = {
    applyPoll: (id) => void events.push(`ok:${id}`),
    applyFailure: (id, _k, _e, n) => void events.push(`fail:${id}:${n}`),
    removeInstance: (id) => void events.push(`removed:${id}`),
  };
  const manager = new PollManager({ clock, timers, factories, sink, staggerMs, random: () => 0.5 });
  return { clock, timers, behaviour, polls, events, manager, maxInFlight: () => maxInFlight };
}

const hv = (id: string, extra: Partial<InstanceConfig> = {}): InstanceConfig => ({
  id,
  kind: 'hv',
  name: id,
  host: '127.0.0.1',
  credentials: { type: 'token', tokenId: 'a@pve!b', secret: 'c' },
  ...extra,
});

const pollTimes = (polls: Array<{ id: string; at: number }>, id: string) =>
  polls.filter((p) => p.id === id).map((p) => p.at);

describe('PollManager', () => {
  it('staggers first polls and then polls each kind at its interval', async () => {
    const h = harness(500);
    h.manager.upsert(hv('a'));
    h.manager.upsert(hv('b'));
    h.manager.upsert({ ...hv('m'), kind: 'mail' });
    await h.timers.advance(61_000);
    expect(pollTimes(h.polls, 'a')).toEqual([0, 10_000, 20_000, 30_000, 40_000, 50_000, 60_000]);
    expect(pollTimes(h.polls, 'b')).toEqual([500, 10_500, 20_500, 30_500, 40_500, 50_500, 60_500]);
    expect(pollTimes(h.polls, 'm')).toEqual([1_000, 61_000]);
  });

  it('never overlaps two polls of one instance, even when a poll outlasts its interval', async () => {
    const h = harness();
    h.behaviour.set('a', () => new Promise<void>((r) => h.timers.setTimeout(r, 25_000)));
    h.manager.upsert(hv('a'));
    void h.manager.pollNow('a');
    await h.timers.advance(100_000);
    expect(h.maxInFlight()).toBe(1);
    expect(pollTimes(h.polls, 'a')).toEqual([0, 35_000, 70_000]);
  });

  it('backs off, opens the breaker, dead-letters after 5 failures, and recovers', async () => {
    const h = harness();
    let failing = true;
    h.behaviour.set('a', async () => {
      if (failing) throw new ApiError('connectivity', 'ECONNREFUSED');
    });
    h.manager.upsert(hv('a'));
    await h.timers.advance(100_000);
    // 0 fail → +5 s, fail → +10 s, fail (breaker opens, retry in 40 s) → +40 s, half-open probe fails → +80 s ...
    expect(pollTimes(h.polls, 'a')).toEqual([0, 5_000, 15_000, 55_000]);
    let health = h.manager.health();
    expect(health.breakers[0]).toMatchObject({ instance: 'a', state: 'open', failures: 4 });
    expect(health.instances[0]?.connection).toBe('error');
    await h.timers.advance(100_000);
    expect(pollTimes(h.polls, 'a')).toHaveLength(5);
    health = h.manager.health();
    expect(health.deadLetter.count).toBe(1);
    expect(health.deadLetter.tasks[0]).toMatchObject({ instance: 'a', type: 'hv', failures: 5 });
    expect(health.instances[0]?.deadLetter).toMatchObject({
      present: true,
      reason: 'max_retry_attempts',
      retryCount: 0,
    });
    const dlqAt = pollTimes(h.polls, 'a').at(-1)!;
    await h.timers.advance(30 * 60_000 - 1 - (h.clock.now() - dlqAt));
    expect(pollTimes(h.polls, 'a')).toHaveLength(5);
    failing = false;
    await h.timers.advance(1);
    expect(pollTimes(h.polls, 'a')).toHaveLength(6);
    health = h.manager.health();
    expect(health.deadLetter.count).toBe(0);
    expect(health.breakers[0]?.state).toBe('closed');
    expect(health.instances[0]?.pollStatus.consecutiveFailures).toBe(0);
    expect(h.events.filter((e) => e.startsWith('fail:'))).toHaveLength(5);
  });

  it('dead-letters an auth error at once', async () => {
    const h = harness();
    h.behaviour.set('a', async () => {
      throw new ApiError('auth', 'authentication failure', { status: 401 });
    });
    h.manager.upsert(hv('a'));
    await h.timers.advance(29 * 60_000);
    expect(h.polls).toHaveLength(1);
    expect(h.manager.health().instances[0]?.deadLetter).toMatchObject({ present: true, reason: 'permanent_failure' });
    expect(h.manager.health().instances[0]?.pollStatus.lastError?.category).toBe('auth');
  });

  it('applies add, change, disable and remove at runtime', async () => {
    const h = harness();
    h.manager.upsert(hv('a'));
    await h.timers.advance(10_000);
    h.manager.upsert(hv('a', { intervalMs: 30_000 }));
    expect(h.events).toContain('close:a');
    await h.timers.advance(60_000);
    expect(pollTimes(h.polls, 'a').filter((t) => t > 10_000).length).toBeLessThanOrEqual(3);
    h.manager.upsert(hv('a', { enabled: false }));
    await h.timers.advance(0);
    expect(h.events).toContain('removed:a');
    const before = h.polls.length;
    await h.timers.advance(120_000);
    expect(h.polls.length).toBe(before);
    expect(h.manager.health().queue.depth).toBe(0);
  });

  it('drops the outcome of a poll whose instance was replaced or removed meanwhile', async () => {
    const h = harness();
    h.behaviour.set('a', () => new Promise<void>((r) => h.timers.setTimeout(r, 5_000)));
    h.manager.upsert(hv('a'));
    await h.timers.advance(0);
    h.manager.upsert(hv('a', { name: 'renamed' }));
    h.behaviour.delete('a');
    await h.timers.advance(5_000);
    // the old poll's result is dropped; the new collector polls at once
    expect(h.events.filter((e) => e === 'ok:a')).toHaveLength(1);
    expect(pollTimes(h.polls, 'a')).toEqual([0, 5_000]);
    h.behaviour.set('a', () => new Promise<void>((r) => h.timers.setTimeout(r, 5_000)));
    await h.timers.advance(10_000);
    await h.manager.remove('a');
    await h.timers.advance(10_000);
    expect(h.events.at(-1)).toBe('close:a');
    expect(h.events.filter((e) => e === 'ok:a')).toHaveLength(1);
  });

  it('reports queue depth, per-type counts and staleness', async () => {
    const h = harness();
    h.manager.upsert(hv('a'));
    h.manager.upsert({ ...hv('b'), kind: 'bak' });
    let health = h.manager.health();
    expect(health.queue).toMatchObject({ depth: 2, perType: { hv: 1, bak: 1 } });
    expect(health.staleness.map((s) => s.score)).toEqual([1, 1]);
    await h.timers.advance(1_000);
    health = h.manager.health();
    expect(health.staleness[0]).toMatchObject({ score: 0, lastSuccess: new Date(0).toISOString() });
    await h.manager.stop();
  });
});
