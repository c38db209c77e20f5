/**
 * One full hv poll cycle (collector + mapping + live-state update) against the simulator at 500 nodes /
 * 2,500 guests, against the limit: fetching + JSON.parse-ing the same requests at the same concurrency over
 * an undici pool, the cheapest way undici allows (dispatch into a chunk list). The same fetch through
 * undici's `request()` + `body.text()` is reported too. Sides alternate within each round; medians are
 * reported, wall (the target) and CPU. The simulator runs in a child process so its CPU counts on neither side.
 * Usage: npm run bench -- poll [nodes] [guestsPerNode] [rounds]
 */
import { spawn } from 'node:child_process';
import { subscribe } from 'node:diagnostics_channel';
import { loadavg } from 'node:os';
import { createInterface } from 'node:readline';
import { systemClock } from '@svc/platform';
import { Agent, request } from 'undici';
import { createHvCollector } from '../apps/server/src/collectors/hv/hv.collector.js';
import { mapLimit, systemTimers } from '../apps/server/src/platform/jobs/index.js';
import { LiveState } from '../apps/server/src/state/index.js';
import { median, report } from './lib/report.js';

const [nodes = 500, perNode = 5, rounds = 9] = process.argv.slice(2).map(Number);
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

/** The cheapest way to fetch and parse one response with undici: dispatch straight into a chunk list. */
function fetchJson(agent: Agent, origin: string, path: string, headers: Record<string, string>): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    agent.dispatch(
      { origin, path, method: 'GET', headers },
      {
        onRequestStart() {},
        onResponseData(_c, chunk) {
          chunks.push(chunk);
        },
        onResponseEnd() {
          try {
            resolve(JSON.parse(Buffer.concat(chunks).toString()));
          } catch (err) {
            reject(err);
          }
        },
        onResponseError(_c, err) {
          reject(err);
        },
      },
    );
  });
}

/** Wall and CPU milliseconds of one run of `fn`. */
async function timed(fn: () => Promise<unknown>): Promise<{ wall: number; cpu: number }> {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  await fn();
  const c = process.cpuUsage(c0);
  return { wall: performance.now() - t0, cpu: (c.user + c.system) / 1000 };
}

const round1 = (xs: number[]) => xs.map((x) => Math.round(x));
const ratios = (a: number[], b: number[]) => a.map((x, i) => Math.round((x / b[i]!) * 100) / 100);

async function main() {
  const load0 = loadavg();
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
    const poll = async () => state.applyPoll('bench', await collector.poll(new AbortController().signal));
    await poll(); // warm-up: connections, JIT
    tracer.on = true;
    await poll();
    tracer.on = false;
    const paths = [...tracer.paths];
    const peak = tracer.peak;
    const agent = new Agent({ connections: 16 });
    const headers = { accept: 'application/json', authorization: `PVEAPIToken=${TOKEN.tokenId}=${TOKEN.secret}` };
    const lean = () => mapLimit(paths, peak, (p) => fetchJson(agent, sim.url, p, headers));
    const viaRequest = () =>
      mapLimit(paths, peak, async (p) => {
        const res = await request(`${sim.url}${p}`, { dispatcher: agent, headers });
        return JSON.parse(await res.body.text());
      });
    const sides = { svc: poll, baseline: lean, request: viaRequest };
    for (const fn of [poll, lean, lean, viaRequest, viaRequest]) await fn();
    const wall = { svc: [] as number[], baseline: [] as number[], request: [] as number[] };
    const cpu = { svc: [] as number[], baseline: [] as number[], request: [] as number[] };
    const order = ['svc', 'baseline', 'request'] as const;
    for (let i = 0; i < rounds; i++) {
      // Alternate the order so that load drifting during a round does not always hit the same side.
      for (const side of i % 2 ? [...order].reverse() : order) {
        const t = await timed(sides[side]);
        wall[side].push(t.wall);
        cpu[side].push(t.cpu);
      }
    }
    const counts = state.counts();
    await collector.close();
    await agent.close();
    const cpuRatio = median(cpu.svc) / median(cpu.baseline);
    const ok = report([
      {
        name: `poll cycle (${counts.nodes} nodes, ${counts.vms + counts.containers} guests, ${paths.length} requests, peak ${peak} in flight)`,
        value: median(wall.svc),
        baseline: median(wall.baseline),
        unit: 'ms',
        target: { op: '<=', ratio: 1.5 },
        extra: {
          wallMs: { svc: round1(wall.svc), baseline: round1(wall.baseline), request: round1(wall.request) },
          wallRatioPerRound: ratios(wall.svc, wall.baseline),
          cpuMs: { svc: round1(cpu.svc), baseline: round1(cpu.baseline), request: round1(cpu.request) },
          cpuRatio: Math.round(cpuRatio * 100) / 100,
          cpuRatioPerRound: ratios(cpu.svc, cpu.baseline),
          vsRequestApi: {
            wallRatio: Math.round((median(wall.svc) / median(wall.request)) * 100) / 100,
            cpuRatio: Math.round((median(cpu.svc) / median(cpu.request)) * 100) / 100,
          },
          loadavg: {
            start: load0.map((l) => Math.round(l * 100) / 100),
            end: loadavg().map((l) => Math.round(l * 100) / 100),
          },
          requests: paths.length,
          peakInFlight: peak,
        },
      },
    ]);
    console.log(
      `cpu: svc ${Math.round(median(cpu.svc))} ms vs baseline ${Math.round(median(cpu.baseline))} ms -> ratio ${cpuRatio.toFixed(2)}`,
    );
    process.exitCode = ok ? 0 : 1;
  } finally {
    sim.stop();
  }
}

await main();
