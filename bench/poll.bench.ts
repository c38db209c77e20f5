/**
 * One full hv poll cycle (collector + mapping + live-state update) against the simulator at 500 nodes /
 * 2,500 guests, against the limit of fetching + JSON.parse-ing the same requests at the same concurrency.
 * The simulator runs in a child process so its CPU does not count on either side.
 * Usage: npm run bench -- poll [nodes] [guestsPerNode] [cycles]
 */
import { spawn } from 'node:child_process';
import { subscribe } from 'node:diagnostics_channel';
import { setMaxListeners } from 'node:events';
import { createInterface } from 'node:readline';
import { systemClock } from '@svc/platform';
import { Agent, request } from 'undici';
import { createHvCollector } from '../apps/server/src/collectors/hv/hv.collector.js';
import { mapLimit, systemTimers } from '../apps/server/src/platform/jobs/index.js';
import { LiveState } from '../apps/server/src/state/index.js';
import { median, report } from './lib/report.js';

const [nodes = 500, perNode = 5, cycles = 5] = process.argv.slice(2).map(Number);
const TOKEN = { tokenId: 'svc@pve!bench', secret: 'bench-secret' };

async function startSim(): Promise<{ url: string; stop: () => void }> {
  const args = ['--import', 'tsx', 'packages/hv-sim/src/cli.ts', '--kind', 'hv', '--port', '0', '--no-strict'];
  args.push(
    '--nodes',
    String(nodes),
    '--guests-per-node',
    String(perNode),
    '--token',
    `${TOKEN.tokenId}=${TOKEN.secret}`,
  );
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  for await (const line of createInterface({ input: child.stdout })) {
    if (!line.startsWith('{')) continue;
    const ready = JSON.parse(line) as { url: string };
    return { url: ready.url, stop: () => child.kill('SIGTERM') };
  }
  throw new Error('simulator did not start');
}

/** Every request undici sends, with the peak number in flight, via its diagnostics channels. */
function trace() {
  const t = { paths: [] as string[], inFlight: 0, peak: 0, on: false };
  const done = () => {
    if (t.on) t.inFlight--;
  };
  subscribe('undici:request:create', (m) => {
    if (!t.on) return;
    t.paths.push((m as { request: { path: string } }).request.path);
    t.peak = Math.max(t.peak, ++t.inFlight);
  });
  subscribe('undici:request:trailers', done);
  subscribe('undici:request:error', done);
  return t;
}

async function main() {
  const sim = await startSim();
  const tracer = trace();
  try {
    const state = new LiveState({ clock: systemClock });
    const collector = createHvCollector(
      {
        id: 'bench',
        kind: 'hv',
        name: 'bench',
        host: sim.url,
        credentials: { type: 'token', ...TOKEN },
        collect: { slowEvery: 0 },
      },
      { clock: systemClock, timers: systemTimers },
    );
    const cpu = { measured: 0, baseline: 0 };
    const cycle = async () => {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      const ctrl = new AbortController();
      setMaxListeners(10_000, ctrl.signal);
      state.applyPoll('bench', await collector.poll(ctrl.signal));
      const c = process.cpuUsage(c0);
      cpu.measured = (c.user + c.system) / 1000;
      return performance.now() - t0;
    };
    await cycle(); // warm-up: connections, JIT
    tracer.on = true;
    await cycle();
    tracer.on = false;
    const paths = [...tracer.paths];
    const peak = tracer.peak;
    const agent = new Agent({ connections: 16 });
    const auth = `PVEAPIToken=${TOKEN.tokenId}=${TOKEN.secret}`;
    const fetchAll = async () => {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      await mapLimit(paths, peak, async (p) => {
        const res = await request(`${sim.url}${p}`, { dispatcher: agent, headers: { authorization: auth } });
        JSON.parse(await res.body.text());
      });
      const c = process.cpuUsage(c0);
      cpu.baseline = (c.user + c.system) / 1000;
      return performance.now() - t0;
    };
    await fetchAll();
    const measured: number[] = [];
    const baseline: number[] = [];
    const cpuMs = { measured: [] as number[], baseline: [] as number[] };
    for (let i = 0; i < cycles; i++) {
      measured.push(await cycle());
      cpuMs.measured.push(Math.round(cpu.measured));
      baseline.push(await fetchAll());
      cpuMs.baseline.push(Math.round(cpu.baseline));
    }
    const counts = state.counts();
    await collector.close();
    await agent.close();
    const ok = report([
      {
        name: `poll cycle (${counts.nodes} nodes, ${counts.vms + counts.containers} guests, ${paths.length} requests, peak ${peak} in flight)`,
        value: median(measured),
        baseline: median(baseline),
        unit: 'ms',
        target: { op: '<=', ratio: 1.5 },
        extra: { measured, baseline, cpuMs, requests: paths.length, peakInFlight: peak },
      },
    ]);
    process.exitCode = ok ? 0 : 1;
  } finally {
    sim.stop();
  }
}

await main();
