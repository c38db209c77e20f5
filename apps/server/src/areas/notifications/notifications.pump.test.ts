import { describe, expect, it } from 'vitest';
import { pump } from './notifications.pump.js';

/** A queue of `total` messages claimed in order, and sends the test settles by hand. */
function rig(total: number, opts: { concurrency: number; lowWater: number; claimSize: number; flushAt: number }) {
  let next = 0;
  let inflight = 0;
  const log: string[] = [];
  const open: Array<() => void> = [];
  const recorded: number[][] = [];
  const released: number[] = [];
  const controller = new AbortController();
  const run = pump<number, number>({
    ...opts,
    flushAfterMs: 1_000_000,
    now: () => 0,
    signal: controller.signal,
    async claim(limit) {
      const got = Array.from({ length: Math.min(limit, total - next) }, (_, i) => next + i);
      next += got.length;
      log.push(`claim ${got.length} while ${inflight} in flight`);
      return got;
    },
    send(m) {
      inflight++;
      expect(inflight).toBeLessThanOrEqual(opts.concurrency);
      return new Promise<number>((resolve) =>
        open.push(() => {
          inflight--;
          resolve(m);
        }),
      );
    },
    async record(results) {
      recorded.push(results);
    },
    async release(ms) {
      released.push(...ms);
    },
  });
  /** Settles every open send and lets the pump react. */
  const settleAll = async () => {
    for (const s of open.splice(0)) s();
    for (let i = 0; i < 20; i++) await Promise.resolve();
  };
  const drive = async () => {
    for (let i = 0; i < 50; i++) await settleAll();
  };
  return { run, log, open, recorded, released, controller, settleAll, drive };
}

describe('delivery pump', () => {
  it('keeps at most `concurrency` sends in flight and claims the next rows while sends are in flight', async () => {
    const r = rig(10, { concurrency: 4, lowWater: 4, claimSize: 3, flushAt: 100 });
    await r.drive();
    await expect(r.run).resolves.toBe(10);
    expect(r.log.some((l) => / while [1-9]/.test(l))).toBe(true);
    // outcomes are written together once the window empties, not once per claim
    expect(r.recorded.flat().sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(r.recorded.length).toBe(1);
  });

  it('writes outcomes in batches of flushAt', async () => {
    const r = rig(12, { concurrency: 4, lowWater: 4, claimSize: 4, flushAt: 4 });
    await r.drive();
    await r.run;
    expect(r.recorded.map((b) => b.length)).toEqual([4, 4, 4]);
  });

  it('on abort it stops claiming, records what was sent and puts unsent claimed rows back', async () => {
    const r = rig(100, { concurrency: 2, lowWater: 2, claimSize: 5, flushAt: 100 });
    for (let i = 0; i < 5; i++) await Promise.resolve();
    r.controller.abort();
    await r.settleAll();
    await expect(r.run).rejects.toThrow();
    expect(r.recorded.flat()).toEqual([0, 1]);
    expect(r.released).toEqual([2, 3, 4]);
  });
});
