import { FakeClock } from '@svc/platform';
import { describe, expect, it } from 'vitest';
import { FakeTimers } from '../platform/jobs/index.js';
import { LiveState } from '../state/index.js';
import { DeltaCoalescer } from './delta.coalescer.js';
import { RealtimeFeed } from './realtime.feed.js';
import { hvPoll, range } from './realtime.fixtures.js';
import type { DeltaData, Envelope, Frame } from './realtime.messages.js';

function setUp(flushMs = 100) {
  const clock = new FakeClock(Date.UTC(2026, 0, 1));
  const timers = new FakeTimers(clock);
  const state = new LiveState({ clock });
  const feed = new RealtimeFeed({ state, clock, timers, flushMs });
  const frames: Frame[] = [];
  feed.addSink({ deliver: (f) => frames.push(f) });
  feed.start();
  const deltas = () => frames.map((f) => JSON.parse(f.bytes.toString()) as Envelope<DeltaData>);
  return { clock, timers, state, feed, frames, deltas };
}

describe('DeltaCoalescer', () => {
  it('keeps the latest record per resource and lets removals and re-adds cancel out', () => {
    const c = new DeltaCoalescer(0);
    const r = (id: string, v: number) => ({ id, v }) as never;
    c.add({ seq: 1, lastUpdate: 10, upserts: { vms: [r('a', 1), r('b', 1)] }, removed: {} });
    c.add({ seq: 2, lastUpdate: 20, upserts: { vms: [r('a', 2)] }, removed: { vms: ['b'] } });
    c.add({ seq: 3, lastUpdate: 15, upserts: { vms: [r('c', 1)] }, removed: { containers: ['x'] } });
    c.add({ seq: 4, lastUpdate: 30, upserts: { containers: [r('x', 9)] }, removed: {} });
    const out = c.take()!;
    expect(out.seq).toBe(4);
    expect(out.data).toEqual({
      prevSeq: 0,
      lastUpdate: 30,
      upserts: { vms: [r('a', 2), r('c', 1)], containers: [r('x', 9)] },
      removed: { vms: ['b'] },
    });
    expect(c.take()).toBeUndefined();
    c.add({ seq: 5, lastUpdate: 40, upserts: {}, removed: {}, connectionHealth: { 'hv-lab': false } });
    expect(c.take()!.data).toMatchObject({ prevSeq: 4, connectionHealth: { 'hv-lab': false } });
  });
});

describe('RealtimeFeed', () => {
  it('sends the first change at once, then at most one coalesced delta per window', async () => {
    const { clock, timers, state, deltas } = setUp(100);
    state.applyPoll('lab', hvPoll('lab', clock.now(), range(10)));
    await timers.advance(0);
    expect(deltas()).toHaveLength(1);
    // A burst inside the window: three polls, each changing one guest.
    for (const vmid of [101, 102, 103]) {
      clock.advance(10);
      state.applyPoll(
        'lab',
        hvPoll('lab', clock.now(), range(10), (v) => (v === vmid ? 0.9 : 0.1)),
      );
    }
    await timers.advance(50);
    expect(deltas()).toHaveLength(1);
    await timers.advance(50);
    const all = deltas();
    expect(all).toHaveLength(2);
    const d = all[1]!;
    expect(d.type).toBe('rawData');
    // 101 and 102 went back to 0.1 in later polls, so they changed too; the latest record of each wins.
    const ids = d.data.upserts.vms!.map((g) => [g.vmid, g.cpu]);
    expect(ids).toEqual([
      [101, 0.1],
      [102, 0.1],
      [103, 0.9],
    ]);
    expect(Object.keys(d.data.upserts)).toEqual(['vms']);
    expect(d.data.prevSeq).toBe(all[0]!.seq);
    expect(d.seq).toBe(state.snapshot().seq);
  });

  it('sends nothing when polls change nothing, and removals as ids', async () => {
    const { clock, timers, state, deltas } = setUp();
    state.applyPoll('lab', hvPoll('lab', clock.now(), range(5)));
    await timers.advance(100);
    clock.advance(10_000);
    state.applyPoll('lab', hvPoll('lab', clock.now(), range(5)));
    await timers.advance(100);
    expect(deltas()).toHaveLength(1);
    state.applyPoll('lab', hvPoll('lab', clock.now(), range(4)));
    await timers.advance(100);
    const d = deltas()[1]!;
    expect(d.data.removed).toEqual({ vms: ['lab:pve1:104'] });
    expect(d.data.upserts).toEqual({});
  });

  it('serialises the full state once per version and releases it on change', () => {
    const { clock, state, feed } = setUp();
    state.applyPoll('lab', hvPoll('lab', clock.now(), range(3)));
    const a = feed.snapshotFrame();
    expect(feed.snapshotFrame()).toBe(a);
    state.applyPoll('lab', hvPoll('lab', clock.now(), range(2)));
    const b = feed.snapshotFrame();
    expect(b).not.toBe(a);
    expect(JSON.parse(b.bytes.toString()).data.vms).toHaveLength(2);
  });

  it('broadcasts a message to every sink as the same bytes', () => {
    const { feed, frames } = setUp();
    const other: Frame[] = [];
    feed.addSink({ deliver: (f) => other.push(f) });
    feed.broadcast('test', { message: 'hello' });
    expect(other[0]!.bytes).toBe(frames[0]!.bytes);
    expect(JSON.parse(other[0]!.bytes.toString())).toMatchObject({ type: 'test', data: { message: 'hello' } });
  });
});
