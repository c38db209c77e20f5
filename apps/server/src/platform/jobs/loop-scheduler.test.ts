import { FakeClock } from '@svc/platform';
import { describe, expect, it } from 'vitest';
import { mapLimit } from './limit.js';
import { type JobOutcome, LoopScheduler, TimeoutError } from './loop-scheduler.js';
import { FakeTimers } from './timers.js';

function setup(concurrency = 4) {
  const clock = new FakeClock(0);
  const timers = new FakeTimers(clock);
  const scheduler = new LoopScheduler({ clock, timers, concurrency });
  return { clock, timers, scheduler };
}

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

describe('LoopScheduler', () => {
  it('runs at the first delay, then at the delay the job asks for', async () => {
    const { clock, timers, scheduler } = setup();
    const runs: number[] = [];
    scheduler.upsert('a', { run: async () => void runs.push(clock.now()), nextDelay: () => 10_000 }, 500);
    await timers.advance(35_000);
    expect(runs).toEqual([500, 10_500, 20_500, 30_500]);
  });

  it('never runs one key twice at once, and plans the next run only after the current one ends', async () => {
    const { timers, scheduler } = setup();
    const gate = deferred();
    let concurrent = 0;
    let max = 0;
    let count = 0;
    scheduler.upsert('a', {
      run: async () => {
        concurrent++;
        max = Math.max(max, concurrent);
        count++;
        if (count === 1) await gate.promise;
        concurrent--;
      },
      nextDelay: () => 1_000,
    });
    await timers.advance(0);
    const joined = scheduler.trigger('a');
    await timers.advance(10_000);
    expect(count).toBe(1);
    gate.resolve();
    await joined;
    await timers.advance(1_000);
    expect(count).toBe(2);
    expect(max).toBe(1);
  });

  it('bounds concurrency across keys', async () => {
    const { timers, scheduler } = setup(2);
    const gate = deferred();
    for (const k of ['a', 'b', 'c', 'd']) scheduler.upsert(k, { run: () => gate.promise, nextDelay: () => 60_000 });
    await timers.advance(0);
    expect(scheduler.active).toBe(2);
    gate.resolve();
    await timers.advance(0);
    expect(scheduler.entries().every((e) => !e.running)).toBe(true);
  });

  it('passes failures to nextDelay and aborts runs that exceed their timeout', async () => {
    const { timers, scheduler } = setup();
    const outcomes: JobOutcome[] = [];
    let aborted = false;
    scheduler.upsert('slow', {
      timeoutMs: 5_000,
      run: (signal) =>
        new Promise<void>((_, reject) => {
          signal.addEventListener('abort', () => {
            aborted = true;
            reject(signal.reason);
          });
        }),
      nextDelay: (o) => {
        outcomes.push(o);
        return 60_000;
      },
    });
    await timers.advance(5_000);
    expect(aborted).toBe(true);
    expect(outcomes[0]?.ok).toBe(false);
    expect(outcomes[0]?.error).toBeInstanceOf(TimeoutError);
  });

  it('applies upsert and remove at runtime', async () => {
    const { timers, scheduler } = setup();
    const seen: string[] = [];
    scheduler.upsert('a', { run: async () => void seen.push('v1'), nextDelay: () => 1_000 });
    await timers.advance(0);
    scheduler.upsert('a', { run: async () => void seen.push('v2'), nextDelay: () => 1_000 }, 100);
    await timers.advance(100);
    scheduler.remove('a');
    await timers.advance(10_000);
    expect(seen).toEqual(['v1', 'v2']);
    expect(scheduler.has('a')).toBe(false);
    expect(timers.size).toBe(0);
  });

  it('stop aborts running jobs and plans nothing more', async () => {
    const { timers, scheduler } = setup();
    let reason: unknown;
    scheduler.upsert('a', {
      run: (signal) =>
        new Promise<void>((resolve) =>
          signal.addEventListener('abort', () => {
            reason = signal.reason;
            resolve();
          }),
        ),
      nextDelay: () => 1_000,
    });
    await timers.advance(0);
    await scheduler.stop();
    expect(String(reason)).toContain('stopped');
    expect(timers.size).toBe(0);
  });
});

describe('mapLimit', () => {
  it('keeps order and bounds in-flight work', async () => {
    let inFlight = 0;
    let max = 0;
    const out = await mapLimit([1, 2, 3, 4, 5, 6], 2, async (n) => {
      inFlight++;
      max = Math.max(max, inFlight);
      await Promise.resolve();
      inFlight--;
      return n * 2;
    });
    expect(out).toEqual([2, 4, 6, 8, 10, 12]);
    expect(max).toBe(2);
  });
});
