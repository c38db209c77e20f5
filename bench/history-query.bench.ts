// `npm run bench -- history-query`: one guest's cpu, 10-second samples over 90 days, loaded into the svc
// metrics store (through its write path, with rollups and retention on a simulated clock) and into Debian's
// Prometheus (backfilled with promtool). GET /api/metrics-store/history (maxPoints=500) vs Prometheus
// query_range avg_over_time at step range/500, same HTTP client, interleaved rounds. Target: p50 <= 0.5x.
// The history route is bound on Fastify through the platform's bindRoutes with the area's real handlers, as
// buildApp does, but without the other areas, so the benchmark does not depend on unrelated work in progress.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { metricsRoutes } from '@svc/contract';
import { bindRoutes, FakeClock, installErrorHandling } from '@svc/platform';
import Fastify from 'fastify';
import { Pool } from 'undici';
import { metricsHandlers } from '../apps/server/src/areas/metrics/metrics.routes.js';
import { createMetricsService } from '../apps/server/src/areas/metrics/metrics.service.js';
import { createMetricsStore, type MetricPoint } from '../apps/server/src/areas/metrics/metrics.store.js';
import { loadConfig } from '../apps/server/src/config/index.js';
import { migrateServerDatabase, openServerDatabase } from '../apps/server/src/platform/db/index.js';
import type { Principal } from '../apps/server/src/platform/http/principal.js';
import { percentile, type Result, report } from './lib/report.js';

const END = Date.UTC(2026, 10, 1) / 1000; // fixed, so the Prometheus fixture can be reused between runs
const DAYS = 90;
const START = END - DAYS * 86_400;
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const perRound = Number(process.env.BENCH_REQUESTS ?? 40);
const ranges = [
  ['1h', 3600],
  ['24h', 86_400],
  ['7d', 7 * 86_400],
  ['30d', 30 * 86_400],
  ['90d', 90 * 86_400],
] as const;

/** Jittered, deterministic values rounded to 2 decimals, identical in both stores. */
function valueAt(ts: number): number {
  const jitter = ((ts * 2_654_435_761) % 1000) / 100;
  return Math.round((40 + 30 * Math.sin(ts / 3600) + jitter) * 100) / 100;
}

async function buildPromFixture(dir: string): Promise<string> {
  const blocks = join(dir, 'data');
  if (existsSync(join(dir, 'done'))) return blocks;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const om = join(dir, 'om.txt');
  const out = createWriteStream(om);
  out.write('# TYPE guest_cpu gauge\n');
  for (let ts = START; ts < END; ts += 10) {
    if (!out.write(`guest_cpu{vmid="100",node="pve1"} ${valueAt(ts)} ${ts}\n`)) {
      await new Promise<void>((r) => out.once('drain', () => r()));
    }
  }
  out.end('# EOF\n');
  await new Promise<void>((r) => out.once('finish', () => r()));
  const t0 = Date.now();
  execFileSync('promtool', ['tsdb', 'create-blocks-from', 'openmetrics', '-q', om, blocks], { stdio: 'inherit' });
  console.log(`promtool backfill: ${Math.round((Date.now() - t0) / 1000)} s`);
  rmSync(om);
  writeFileSync(join(dir, 'done'), '');
  return blocks;
}

async function startPrometheus(data: string, dir: string): Promise<{ child: ChildProcess; url: string }> {
  const port = 9000 + Math.floor(Math.random() * 800);
  const cfg = join(dir, 'prometheus.yml');
  writeFileSync(cfg, 'global:\n  scrape_interval: 1m\nscrape_configs: []\n');
  const child = spawn(
    'prometheus',
    [
      `--config.file=${cfg}`,
      `--storage.tsdb.path=${data}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--storage.tsdb.retention.time=400d',
      '--log.level=warn',
    ],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 600; i++) {
    const ok = await fetch(`${url}/-/ready`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return { child, url };
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill();
  throw new Error('Prometheus did not become ready in 60 s');
}

/**
 * Waits until Prometheus has compacted the backfilled two-hour blocks: its compactor runs once a minute, so
 * wait at least two minutes and until the block count has not changed for a minute (at most ten minutes).
 */
async function settle(url: string): Promise<number> {
  const t0 = Date.now();
  let last = -1;
  let since = Date.now();
  while (Date.now() - t0 < 600_000) {
    const text = await (await fetch(`${url}/metrics`)).text();
    const n = Number(/^prometheus_tsdb_blocks_loaded (\S+)$/m.exec(text)?.[1] ?? 0);
    if (n !== last) {
      last = n;
      since = Date.now();
    }
    if (Date.now() - t0 > 120_000 && Date.now() - since > 60_000) break;
    await new Promise((r) => setTimeout(r, 5000));
  }
  return last;
}

/** The same samples through the store's write path: 15-minute batches, maintenance after each, as in production. */
async function loadStore() {
  const dir = mkdtempSync(join(tmpdir(), 'svc-history-bench-'));
  const config = loadConfig({ SVC_DATA_DIR: dir, LOG_LEVEL: 'warn' });
  const db = openServerDatabase(config);
  await migrateServerDatabase(db);
  const clock = new FakeClock(START * 1000);
  const service = createMetricsService(createMetricsStore(db), { clock, hasFeature: () => true });
  const t0 = performance.now();
  for (let from = START; from < END; from += 900) {
    const batch: MetricPoint[] = [];
    for (let ts = from; ts < from + 900; ts += 10) {
      batch.push({
        orgId: 'default',
        resourceType: 'vm',
        resourceId: 'pve1:100',
        metric: 'cpu',
        value: valueAt(ts),
        timestamp: ts * 1000,
      });
    }
    await service.recordBatch(batch);
    clock.set((from + 900) * 1000);
    await service.runMaintenance();
  }
  console.log(`svc store load (90 d, write + rollups + retention): ${Math.round(performance.now() - t0)} ms`);
  const stats = await service.getStats(null);
  console.log(`svc tiers: ${stats.tiers.map((t) => `${t.tier}=${t.rows}`).join(' ')}, ${stats.diskBytes} bytes`);
  return { db, dir, clock };
}

async function time(pool: Pool, path: string, n: number, into: number[]): Promise<void> {
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    const r = await pool.request({ method: 'GET', path });
    const body = await r.body.text();
    into.push(performance.now() - t0);
    if (r.statusCode !== 200) throw new Error(`${path}: ${r.statusCode} ${body.slice(0, 200)}`);
  }
}

async function main(): Promise<void> {
  for (const bin of ['prometheus', 'promtool']) {
    try {
      execFileSync('sh', ['-c', `command -v ${bin}`], { stdio: 'ignore' });
    } catch {
      throw new Error(`${bin} is not installed (Debian package prometheus); the peer cannot run.`);
    }
  }
  const fixture = join(tmpdir(), 'svc-bench-prom-history-90d');
  const data = await buildPromFixture(fixture);
  const prom = await startPrometheus(data, fixture);
  const { db, dir, clock } = await loadStore();
  clock.set(END * 1000);
  const app = Fastify({ logger: false });
  installErrorHandling(app, { routes: Object.values(metricsRoutes) });
  const service = createMetricsService(createMetricsStore(db), { clock, hasFeature: () => true });
  const principal: Principal = {
    kind: 'token',
    username: 'bench',
    isAdmin: false,
    scopes: ['monitoring:read'],
    orgId: 'default',
  };
  bindRoutes(app, { routes: metricsRoutes, handlers: metricsHandlers(service), gate: async () => principal });
  const ours = new Pool(await app.listen({ host: '127.0.0.1', port: 0 }), { connections: 1 });
  const peer = new Pool(prom.url, { connections: 1 });
  try {
    console.log(`Prometheus blocks after compaction: ${await settle(prom.url)}`);
    const results: Result[] = [];
    for (const [label, seconds] of ranges) {
      const step = Math.ceil(seconds / 500);
      const svcPath = `/api/metrics-store/history?resourceType=guest&resourceId=pve1:100&metric=cpu&range=${label}&maxPoints=500`;
      const q = encodeURIComponent(`avg_over_time(guest_cpu{vmid="100"}[${step}s])`);
      const promPath = `/api/v1/query_range?query=${q}&start=${END - seconds}&end=${END}&step=${step}`;
      await time(ours, svcPath, 20, []);
      await time(peer, promPath, 20, []);
      const a: number[] = [];
      const b: number[] = [];
      for (let r = 0; r < rounds; r++) {
        await time(ours, svcPath, perRound, a);
        await time(peer, promPath, perRound, b);
      }
      const target = { op: '<=' as const, ratio: 0.5 };
      results.push({
        name: `history ${label} p50`,
        value: percentile(a, 50),
        baseline: percentile(b, 50),
        unit: 'ms',
        target,
      });
      results.push({
        name: `history ${label} p99`,
        value: percentile(a, 99),
        baseline: percentile(b, 99),
        unit: 'ms',
        target,
      });
    }
    process.exitCode = report(results) ? 0 : 1;
  } finally {
    await ours.close();
    await peer.close();
    await app.close();
    await db.close();
    prom.child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
