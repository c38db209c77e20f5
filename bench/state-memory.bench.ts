/**
 * W7 (memory part): RSS and heap per monitored guest at 1k and 10k guests after steady state, and no growth
 * across 1,000 poll cycles at a fixed estate. LiveState is fed generated hv poll results (20 guests per node,
 * 1% of guests changing per cycle) and the realtime feed coalesces and serialises every cycle's delta, so
 * the whole live-push path is measured, not just the maps. Each size runs in its own process so RSS is clean.
 * Usage: npm run bench -- state-memory [cycles]
 */
import { spawnSync } from 'node:child_process';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { systemClock } from '@svc/platform';
import type { HvPollResult } from '../apps/server/src/collectors/index.js';
import { systemTimers } from '../apps/server/src/platform/jobs/index.js';
import { RealtimeFeed } from '../apps/server/src/realtime/realtime.feed.js';
import { guest, hvNode } from '../apps/server/src/realtime/realtime.fixtures.js';
import { LiveState } from '../apps/server/src/state/index.js';
import { report } from './lib/report.js';

const BUDGET = 100 * 1024; // bytes per guest (performance.md W7 absolute guard)
const self = new URL(import.meta.url).pathname;

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

function measure(): { heap: number; rss: number } {
  for (let i = 0; i < 3; i++) gc();
  const m = process.memoryUsage();
  return { heap: m.heapUsed, rss: m.rss };
}

/** A deterministic estate of `guests` VMs on nodes of 20; `cycle` moves 1% of them each time. */
function poll(guests: number, cycle: number, at: number): HvPollResult {
  const moving = Math.max(1, Math.round(guests / 100));
  const start = (cycle * moving) % guests;
  const vms = Array.from({ length: guests }, (_, i) => {
    const changed = (i - start + guests) % guests < moving;
    const g = guest('lab', 100 + i, at, changed ? 0.2 + (cycle % 50) / 100 : 0.1);
    g.node = `pve${Math.floor(i / 20)}`;
    g.id = `lab:${g.node}:${g.vmid}`;
    return g;
  });
  const nodes = Array.from({ length: Math.ceil(guests / 20) }, (_, n) => {
    const rec = hvNode('lab', at);
    return { ...rec, id: `lab-pve${n}`, node: `pve${n}`, name: `pve${n}`, displayName: `pve${n}` };
  });
  return { kind: 'hv', at, cluster: undefined, nodes, vms, containers: [], storage: [], warnings: [] };
}

/** Child: one estate size; prints per-guest cost after warm-up and memory at cycle 100 and at the end. */
function child(guests: number, cycles: number): void {
  const before = measure();
  const state = new LiveState({ clock: systemClock });
  const feed = new RealtimeFeed({ state, clock: systemClock, timers: systemTimers });
  let sent = 0;
  feed.addSink({
    deliver: (f) => {
      sent += f.bytes.length;
    },
  });
  feed.start();
  let at = Date.now();
  const cycle = (c: number) => {
    at += 10_000;
    state.applyPoll('lab', poll(guests, c, at));
    feed.flush();
    if (c % 100 === 0) feed.snapshotFrame(); // a client (re)connecting now and then
  };
  for (let c = 0; c < 20; c++) cycle(c);
  const steady = measure();
  for (let c = 20; c < 100; c++) cycle(c);
  const at100 = measure();
  for (let c = 100; c < cycles; c++) cycle(c);
  const atEnd = measure();
  feed.stop();
  console.log(
    JSON.stringify({
      guests,
      heapPerGuest: (steady.heap - before.heap) / guests,
      rssPerGuest: (steady.rss - before.rss) / guests,
      at100,
      atEnd,
      bytesSent: sent,
    }),
  );
}

interface ChildOut {
  guests: number;
  heapPerGuest: number;
  rssPerGuest: number;
  at100: { heap: number; rss: number };
  atEnd: { heap: number; rss: number };
}

function runChild(guests: number, cycles: number): ChildOut {
  const r = spawnSync(process.execPath, ['--import', 'tsx', self, 'child', String(guests), String(cycles)], {
    encoding: 'utf8',
    maxBuffer: 1 << 24,
  });
  const line = r.stdout.split('\n').find((l) => l.startsWith('{'));
  if (!line) throw new Error(`child failed: ${r.stderr}`);
  return JSON.parse(line) as ChildOut;
}

function main(): void {
  const cycles = Number(process.argv[2] ?? 1000);
  const small = runChild(1000, cycles);
  const large = runChild(10_000, Math.min(cycles, 300));
  const kb = (n: number) => n / 1024;
  report([
    ...[small, large].flatMap((r) => [
      {
        name: `state-memory heap per guest at ${r.guests} guests`,
        value: kb(r.heapPerGuest),
        baseline: kb(BUDGET),
        unit: 'kB',
        target: { op: '<=' as const, ratio: 1 },
      },
      {
        name: `state-memory RSS per guest at ${r.guests} guests`,
        value: kb(r.rssPerGuest),
        baseline: kb(BUDGET),
        unit: 'kB',
        target: { op: '<=' as const, ratio: 1 },
      },
    ]),
    {
      name: `state-memory heap growth, 1,000 guests, cycle 100 -> ${cycles}`,
      value: small.atEnd.heap / 1e6,
      baseline: small.at100.heap / 1e6,
      unit: 'MB',
      target: { op: '<=', ratio: 1.05 },
    },
    {
      name: `state-memory RSS growth, 1,000 guests, cycle 100 -> ${cycles}`,
      value: small.atEnd.rss / 1e6,
      baseline: small.at100.rss / 1e6,
      unit: 'MB',
      target: { op: '<=', ratio: 1.1 },
    },
    {
      name: 'state-memory heap growth, 10,000 guests, cycle 100 -> 300',
      value: large.atEnd.heap / 1e6,
      baseline: large.at100.heap / 1e6,
      unit: 'MB',
      target: { op: '<=', ratio: 1.05 },
    },
  ]);
}

if (process.argv[2] === 'child') child(Number(process.argv[3]), Number(process.argv[4]));
else main();
