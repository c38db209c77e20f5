/**
 * Notices delivered per second by svc's durable pipeline (SQLite queue on disk, worker, undici) to a local
 * receiver, against Alertmanager 0.25 (Debian, loopback, one webhook group per alert) and against a bare
 * undici pool posting the same payloads (the ceiling). Counts lost and duplicated deliveries.
 *
 *   npm run bench -- alerts-delivery [sizes=1000,10000]
 * BENCH_ROUNDS (default 3) rounds per size; BENCH_DEBUG=1 prints each svc burst's enqueue time, wall time, CPU
 * and main-thread event-loop use; BENCH_SVC_ONLY=1 runs svc's rounds only (for profiling).
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { AreaDeps } from '../apps/server/src/areas/area.js';
import { createAuditArea } from '../apps/server/src/areas/audit/index.js';
import { createNotificationsArea, type Notice } from '../apps/server/src/areas/notifications/index.js';
import { loadConfig } from '../apps/server/src/config/index.js';
import { createSecretBox } from '../apps/server/src/platform/crypto/index.js';
import { migrateServerDatabase, openServerDatabase } from '../apps/server/src/platform/db/index.js';
import { systemTimers } from '../apps/server/src/platform/jobs/index.js';
import { webhookInput } from '../packages/contract/src/index.js';
import { createMemoryLogger, systemClock } from '../packages/platform/src/index.js';
import { type Result, report } from './lib/report.js';

const AM = '/usr/bin/prometheus-alertmanager';
const sizes = (process.argv[2] ?? '1000,10000').split(',').map(Number);
// Rounds interleave the three systems so a busy machine weighs on all of them alike; medians are reported.
const rounds = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

/**
 * Receiver: counts deliveries per key (event id for svc and the pool, alert label for Alertmanager). It runs
 * in its own thread: svc's pipeline runs in this process, and a receiver sharing its event loop would take
 * CPU from svc that Alertmanager, a separate process, never has to give.
 */
const receiverSource = `
const { createServer } = require('node:http');
const { parentPort } = require('node:worker_threads');
const seen = new Map();
let total = 0;
let waiter;
const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const body = Buffer.concat(chunks).toString('utf8');
    const keys = req.url === '/am'
      ? JSON.parse(body).alerts.map((a) => 'am-' + a.labels.vmid)
      : [String(req.headers['x-svc-event-id'])];
    for (const k of keys) seen.set(k, (seen.get(k) ?? 0) + 1);
    total += keys.length;
    res.writeHead(204).end();
    if (waiter && seen.size >= waiter.n) { parentPort.postMessage({ id: waiter.id }); waiter = undefined; }
  });
});
server.keepAliveTimeout = 30000;
parentPort.on('message', (m) => {
  if (m.type === 'reset') { seen.clear(); total = 0; parentPort.postMessage({ id: m.id }); }
  else if (m.type === 'until') { if (seen.size >= m.n) parentPort.postMessage({ id: m.id }); else waiter = { n: m.n, id: m.id }; }
  else if (m.type === 'counts') parentPort.postMessage({ id: m.id, unique: seen.size, total });
  else if (m.type === 'close') server.close(() => parentPort.postMessage({ id: m.id }));
});
server.listen(0, '127.0.0.1', () => parentPort.postMessage({ id: 0, port: server.address().port }));
`;

async function receiver() {
  const worker = new Worker(receiverSource, { eval: true });
  type Reply = { id: number; port?: number; unique?: number; total?: number };
  const pending = new Map<number, (m: Reply) => void>();
  let nextId = 1;
  worker.on('message', (m: Reply) => {
    pending.get(m.id)?.(m);
    pending.delete(m.id);
  });
  const call = (msg: object) =>
    new Promise<Reply>((resolve) => {
      const id = nextId++;
      pending.set(id, resolve);
      worker.postMessage({ ...msg, id });
    });
  const { port } = await new Promise<Reply>((resolve) => pending.set(0, resolve));
  return {
    port: port!,
    reset: () => call({ type: 'reset' }),
    until: async (n: number) => {
      await call({ type: 'until', n });
    },
    counts: async () => {
      const c = await call({ type: 'counts' });
      return { unique: c.unique!, total: c.total! };
    },
    close: async () => {
      await call({ type: 'close' });
      await worker.terminate();
    },
  };
}
type Rx = Awaited<ReturnType<typeof receiver>>;

const notice = (run: string, i: number): Notice => ({
  eventId: `${run}-${i}:firing`,
  event: 'firing',
  at: Date.now(),
  alert: {
    id: `${run}-${i}`,
    type: 'cpu',
    level: i % 5 ? 'warning' : 'critical',
    resourceId: `hv1:n1:${i}`,
    resourceName: `vm-${i}`,
    node: 'n1',
    instance: 'hv1',
    message: `VM cpu at 9${i % 10}.0%`,
    value: 90 + (i % 10),
    threshold: 90,
    startTime: Date.now() - 60_000,
    lastSeen: Date.now(),
    acknowledged: false,
  },
});

/**
 * One svc for the whole run, like the one Alertmanager process: both keep their connections to the receiver
 * between bursts, as long-running services do. (A fresh svc per burst paid for 128 new connections in every
 * round that Alertmanager did not.)
 */
async function startSvc(rx: Rx) {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-'));
  const config = loadConfig({ SVC_DATA_DIR: dataDir, SVC_WEBHOOK_ALLOW_CIDRS: '127.0.0.1/32', LOG_LEVEL: 'warn' });
  const db = openServerDatabase(config);
  await migrateServerDatabase(db);
  const deps = {
    config,
    db,
    log: createMemoryLogger('warn').logger,
    clock: systemClock,
    secrets: createSecretBox(randomBytes(32)),
  } as unknown as AreaDeps;
  const area = createNotificationsArea(deps, createAuditArea(deps), { timers: systemTimers });
  await area.start();
  const actor = { user: 'bench', ip: '127.0.0.1', path: '/bench' };
  await area.webhooks.create(
    actor,
    webhookInput.parse({ name: 'rx', url: `http://127.0.0.1:${rx.port}/svc`, service: 'generic' }),
  );
  return {
    area,
    close: async () => {
      await area.stop();
      await db.close();
    },
  };
}
type Svc = Awaited<ReturnType<typeof startSvc>>;

let burst = 0;
async function svcRun(svc: Svc, rx: Rx, n: number): Promise<{ rate: number; lost: number; dup: number }> {
  const run = `s${n}-${burst++}`; // fresh alert ids per burst: every notice is new to the queue
  await rx.reset();
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const e0 = performance.eventLoopUtilization();
  await svc.area.sink.deliver(Array.from({ length: n }, (_, i) => notice(run, i)));
  if (process.env.BENCH_DEBUG) console.log(`enqueued ${n} in ${(performance.now() - t0).toFixed(0)} ms`);
  await rx.until(n);
  const ms = performance.now() - t0;
  if (process.env.BENCH_DEBUG) {
    const cpu = process.cpuUsage(c0);
    const elu = performance.eventLoopUtilization(e0).utilization;
    const cpuMs = (cpu.user + cpu.system) / 1000;
    console.log(
      `wall ${ms.toFixed(0)} ms, process CPU ${cpuMs.toFixed(0)} ms, main thread busy ${(elu * 100).toFixed(0)}%`,
    );
  }
  const { unique, total } = await rx.counts();
  return { rate: (n / ms) * 1000, lost: n - unique, dup: total - unique };
}

/**
 * The undici pool posts from its own thread: in svc's thread, its garbage and its use of the same undici code
 * slowed svc's next burst (svc's bursts ran ~30% faster in runs without the pool rounds).
 */
const poolSource = `
const { parentPort } = require('node:worker_threads');
const { Pool } = require('undici');
parentPort.on('message', async ({ url, payloads, tag }) => {
  const pool = new Pool(url, { connections: 128 });
  const n = payloads.length;
  const t0 = performance.now();
  let next = 0;
  const worker = async () => {
    while (next < n) {
      const i = next++;
      const r = await pool.request({
        path: '/pool',
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-svc-event-id': tag + '-' + i },
        body: payloads[i],
      });
      await r.body.dump();
    }
  };
  await Promise.all(Array.from({ length: 64 }, worker));
  const ms = performance.now() - t0;
  await pool.close();
  parentPort.postMessage(ms);
});
`;

/** One pool thread for the whole run, warm like svc and Alertmanager; a new pool (and sockets) per burst. */
let poolThread: Worker | undefined;

async function poolRun(rx: Rx, n: number): Promise<number> {
  const payloads = Array.from({ length: n }, (_, i) =>
    JSON.stringify({ alert: notice(`p${n}`, i).alert, source: 'svc' }),
  );
  await rx.reset();
  poolThread ??= new Worker(poolSource, { eval: true });
  const thread = poolThread;
  const ms = await new Promise<number>((resolve, reject) => {
    thread.once('error', reject);
    thread.once('message', (m: number) => {
      thread.off('error', reject);
      resolve(m);
    });
    thread.postMessage({ url: `http://127.0.0.1:${rx.port}`, payloads, tag: `p${n}` });
  });
  await rx.until(n);
  return (n / ms) * 1000;
}

type Am = NonNullable<Awaited<ReturnType<typeof startAlertmanager>>>;

async function postAlerts(am: Am, alerts: object[]): Promise<void> {
  for (let i = 0; i < alerts.length; i += 1000) {
    const res = await fetch(`http://127.0.0.1:${am.port}/api/v2/alerts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(alerts.slice(i, i + 1000)),
    });
    if (!res.ok) throw new Error(`alertmanager answered ${res.status}`);
  }
}

/** CPU time Alertmanager has used so far (ms), from /proc. */
function amCpuMs(am: Am): number {
  const f = readFileSync(`/proc/${am.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(f[11]) + Number(f[12])) * 10; // utime + stime, in clock ticks of 10 ms
}

/**
 * After its round, Alertmanager's alerts are resolved (it sends nothing for them: send_resolved is off) and
 * the next round waits until it is idle. Left open, every round's 1,000 alert groups kept it evaluating them
 * each second, taking up to 70% of a core from whichever round ran next (measured during svc's rounds).
 */
async function settleAlertmanager(am: Am, alerts: Array<{ labels: object }>): Promise<void> {
  const ended = new Date().toISOString();
  await postAlerts(
    am,
    alerts.map((a) => ({ ...a, endsAt: ended })),
  );
  for (let i = 0, last = amCpuMs(am); i < 100; i++) {
    await new Promise((r) => setTimeout(r, 200));
    const now = amCpuMs(am);
    if (now - last <= 10) return;
    last = now;
  }
}

async function alertmanagerRun(rx: Rx, n: number, am: Am, round = 0): Promise<number> {
  await rx.reset();
  const now = new Date().toISOString();
  const alerts = Array.from({ length: n }, (_, i) => ({
    labels: { alertname: `bench${n}-${round}`, vmid: String(i) },
    startsAt: now,
  }));
  const t0 = performance.now();
  await postAlerts(am, alerts);
  await rx.until(n);
  const rate = (n / (performance.now() - t0)) * 1000;
  await settleAlertmanager(am, alerts);
  return rate;
}

async function startAlertmanager(rxPort: number) {
  const dir = mkdtempSync(join(tmpdir(), 'svc-am-'));
  const port = 19093;
  writeFileSync(
    join(dir, 'am.yml'),
    `route:\n  receiver: hook\n  group_by: [alertname, vmid]\n  group_wait: 0s\n  group_interval: 1s\nreceivers:\n  - name: hook\n    webhook_configs:\n      - url: http://127.0.0.1:${rxPort}/am\n        send_resolved: false\n`,
  );
  const child = spawn(
    AM,
    [
      `--config.file=${join(dir, 'am.yml')}`,
      `--storage.path=${join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--cluster.listen-address=',
    ],
    { stdio: 'ignore' },
  );
  for (let i = 0; i < 100; i++) {
    const ok = await fetch(`http://127.0.0.1:${port}/-/ready`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return { port, pid: child.pid!, stop: () => child.kill('SIGTERM') };
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error('alertmanager did not become ready');
}

const rx = await receiver();
const am = existsSync(AM) ? await startAlertmanager(rx.port) : undefined;
const service = await startSvc(rx);
const results: Result[] = [];
try {
  console.log(`load average before: ${load()} (${rounds} rounds per size)`);
  for (const n of sizes) {
    // Warm-up: a server that has been running has its delivery path compiled; one burst of 1,000 is not enough
    // for that (measured: successive 1k runs in one process went 680, 940, 1390, 2140/s).
    for (let w = 0; w < 3; w++) await svcRun(service, rx, 2000);
    const svc: number[] = [];
    const pools: number[] = [];
    const ams: number[] = [];
    const s = { lost: 0, dup: 0 };
    for (let r = 0; r < rounds; r++) {
      const amBefore = am ? amCpuMs(am) : 0;
      const one = await svcRun(service, rx, n);
      if (am && process.env.BENCH_DEBUG)
        console.log(`Alertmanager CPU during svc's burst: ${amCpuMs(am) - amBefore} ms`);
      svc.push(one.rate);
      s.lost += one.lost;
      s.dup += one.dup;
      pools.push(process.env.BENCH_SVC_ONLY ? 1 : await poolRun(rx, n));
      ams.push(am && !process.env.BENCH_SVC_ONLY ? await alertmanagerRun(rx, n, am, r) : Number.NaN);
      const line = `svc ${one.rate.toFixed(0)}/s, pool ${pools[r]!.toFixed(0)}/s, Alertmanager ${ams[r]!.toFixed(0)}/s`;
      console.log(`  ${n} round ${r + 1}: ${line}; load ${load()}`);
    }
    const pool = median(pools);
    const amRate = median(ams);
    const sRate = median(svc);
    console.log(
      `${n} notices (median of ${rounds}): svc ${sRate.toFixed(0)}/s (lost ${s.lost}, duplicated ${s.dup}); undici pool ${pool.toFixed(0)}/s; Alertmanager ${amRate.toFixed(0)}/s`,
    );
    if (s.lost !== 0) console.log(`LOST ${s.lost} notices`);
    results.push({
      name: `alerts-delivery ${n} vs Alertmanager`,
      value: sRate,
      baseline: amRate,
      unit: 'deliveries/s',
      target: { op: '>=', ratio: 1 },
      extra: { lost: s.lost, duplicated: s.dup },
    });
    results.push({
      name: `alerts-delivery ${n} vs undici pool`,
      value: sRate,
      baseline: pool,
      unit: 'deliveries/s',
      target: { op: '>=', ratio: 0.1 },
      extra: { lost: s.lost, duplicated: s.dup },
    });
  }
  console.log(`load average after: ${load()}`);
} finally {
  am?.stop();
  await poolThread?.terminate();
  await service.close();
  await rx.close();
}
process.exitCode = report(results) && results.every((r) => r.extra?.lost === 0) ? 0 : 1;
