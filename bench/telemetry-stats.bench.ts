/**
 * Statistics of svc-telemetry over 2.5 million generated install records on SQLite: p50 latency of the
 * summary, per-app and per-day endpoints (through the HTTP app) must stay within 50 ms each. The baseline
 * of each line is that 50 ms budget; a naive full scan of `installs` is printed for comparison.
 *
 *   npm run bench -- telemetry-stats [records=2500000] [iterations=30]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMemoryLogger } from '@svc/platform';
import { buildApp } from '../apps/telemetry/src/app.js';
import { loadConfig } from '../apps/telemetry/src/config/index.js';
import { migrateTelemetryDatabase, openTelemetryDatabase, runnerFor } from '../apps/telemetry/src/db/index.js';
import { CountDeltas } from '../apps/telemetry/src/ingest/ingest.store.js';
import { BatchWriter } from '../apps/telemetry/src/ingest/ingest.writer.js';
import { median, percentile, report } from './lib/report.js';

const RECORDS = Number(process.argv[2] ?? 2_500_000);
const ITERATIONS = Number(process.argv[3] ?? 30);
const DAYS = 365;
const START = Date.UTC(2025, 10, 23);
const BUDGET_MS = 50;

/** Deterministic pseudo-random numbers, so every run generates the same data set. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Index into n items with a Zipf-like skew: a few apps and errors dominate, as in the real data. */
function zipf(r: () => number, n: number): number {
  return Math.min(n - 1, Math.floor(n ** r() - 1));
}

const apps = Array.from({ length: 400 }, (_, i) => `app-${i.toString().padStart(3, '0')}`);
const oses: [string, string][] = [
  ['debian', '12'],
  ['debian', '13'],
  ['ubuntu', '24.04'],
  ['ubuntu', '22.04'],
  ['alpine', '3.21'],
  ['alpine', '3.20'],
  ['fedora', '42'],
  ['devuan', '5'],
];
const errors = Array.from({ length: 1500 }, (_, i) => `exit code ${i % 255}: command ${i} failed in install script`);
const outcomes: [string, number][] = [
  ['done', 0.66],
  ['success', 0.06],
  ['failed', 0.15],
  ['aborted', 0.03],
  ['unknown', 0.07],
  ['installing', 0.02],
  ['configuring', 0.01],
];

function pickStatus(x: number): string {
  for (const [s, p] of outcomes) {
    if (x < p) return s;
    x -= p;
  }
  return 'done';
}

async function generate(dir: string) {
  const config = loadConfig({ SVC_TELEMETRY_DATA_DIR: dir, LOG_LEVEL: 'warn' });
  const handle = openTelemetryDatabase(config);
  await migrateTelemetryDatabase(handle);
  const db = handle.sqlite!;
  db.pragma('cache_size = -262144');
  // Secondary indexes are rebuilt after the load: one sort each is much faster than 2.5M random inserts.
  const indexes = db
    .prepare("select sql from sqlite_master where type = 'index' and tbl_name = 'installs' and sql is not null")
    .all() as { sql: string }[];
  for (const { sql } of indexes) db.exec(`drop index ${/create index "?(\w+)"?/i.exec(sql)![1]}`);
  const insert = db.prepare(
    `insert into installs (random_id, created_at, updated_at, day, type, nsapp, status, error, ct_type, disk_size,
       core_count, ram_size, os_type, os_version, disableip6, method, hv_version)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  // The service's own bookkeeping computes the running totals, so they match what ingest would write.
  const deltas = new CountDeltas();
  const r = rng(7);
  const started = Date.now();
  db.transaction(() => {
    for (let i = 0; i < RECORDS; i++) {
      const created = START + Math.floor((i / RECORDS) * DAYS * 86_400_000);
      const day = new Date(created).toISOString().slice(0, 10);
      const nsapp = apps[zipf(r, apps.length)]!;
      const vm = r() < 0.12;
      const [os, version] = oses[Math.floor(r() * oses.length)]!;
      const status = pickStatus(r());
      const failing = status === 'failed' || status === 'aborted';
      const error = failing ? errors[zipf(r, errors.length)]! : status === 'done' ? 'none' : '';
      const id = `00000000-0000-4000-8000-${i.toString(16).padStart(12, '0')}`;
      insert.run(
        id,
        created,
        created,
        day,
        vm ? 'vm' : 'lxc',
        nsapp,
        status,
        error,
        vm ? 2 : 1,
        8,
        2,
        2048,
        os,
        version,
        '',
        'default',
        '8.3.2',
      );
      deltas.add({ day, type: vm ? 'vm' : 'lxc', nsapp, os_type: os, os_version: version, status, error }, 1);
      if ((i + 1) % 250_000 === 0) {
        const s = (Date.now() - started) / 1000;
        console.log(`  generated ${(i + 1).toLocaleString('en-US')} records (${s.toFixed(1)} s)`);
      }
    }
  })();
  const runner = runnerFor(handle);
  await runner.transaction((tx) => deltas.flush(tx));
  const [count] = await runner.all<{ n: number }>('select count(*) as n from install_totals');
  const rows = count?.n ?? 0;
  console.log(`  ${rows.toLocaleString('en-US')} running-total rows; rebuilding indexes...`);
  for (const { sql } of indexes) db.exec(sql);
  db.exec('analyze');
  console.log(`  data ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return handle;
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'telemetry-stats-bench-'));
  try {
    console.log(`Generating ${RECORDS.toLocaleString('en-US')} install records over ${DAYS} days (SQLite, ${dir})`);
    const handle = await generate(dir);
    const runner = runnerFor(handle);
    const config = loadConfig({ SVC_TELEMETRY_RATE_LIMIT: '0', LOG_LEVEL: 'warn' });
    const app = await buildApp({
      config,
      runner,
      writer: new BatchWriter(runner),
      log: createMemoryLogger('warn').logger,
    });
    const time = async (url: string) => {
      const samples: number[] = [];
      for (let i = 0; i < ITERATIONS + 3; i++) {
        const t = performance.now();
        const res = await app.inject({ method: 'GET', url });
        if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
        if (i >= 3) samples.push(performance.now() - t);
      }
      return { p50: median(samples), p95: percentile(samples, 95) };
    };
    const check = (await app.inject({ method: 'GET', url: '/api/stats/summary' })).json();
    const scanStart = performance.now();
    const scanned = handle.sqlite!.prepare('select count(*) as n from installs').get() as { n: number };
    const naive = handle.sqlite!.prepare('select status, count(*) as n from installs group by status').all();
    const naiveMs = performance.now() - scanStart;
    if (check.total !== scanned.n) throw new Error(`totals disagree: ${check.total} vs ${scanned.n}`);
    console.log(
      `  summary total ${check.total} = count(*) of installs; naive group-by scan took ${naiveMs.toFixed(0)} ms (${naive.length} statuses)`,
    );
    const lines = [
      ['summary (all time)', '/api/stats/summary'],
      ['per-app (all time, top 20)', '/api/stats/apps'],
      ['per-day (all time, 365 days)', '/api/stats/days'],
    ] as const;
    // Reported but not gated: a 30-day window spanning two months reads daily rows (see docs/telemetry.md).
    const extras = [
      ['summary (last 30 days)', '/api/stats/summary?from=2026-10-23&to=2026-11-21'],
      ['per-app (last 30 days)', '/api/stats/apps?from=2026-10-23&to=2026-11-21'],
      ['per-day (last 30 days)', '/api/stats/days?from=2026-10-23&to=2026-11-21'],
      ['per-app (one whole month)', '/api/stats/apps?from=2026-10-01&to=2026-10-31'],
      ['per-OS (all time)', '/api/stats/os'],
      ['top errors (all time)', '/api/stats/errors'],
      ['records page 1 (all)', '/api/records'],
      ['records page 1 (status=failed&nsapp=app-003)', '/api/records?status=failed&nsapp=app-003'],
      ['records page 1 (nsapp+type+os: counted rows)', '/api/records?nsapp=app-001&type=vm&os=alpine'],
    ] as const;
    const results = [];
    for (const [name, url] of lines) {
      const m = await time(url);
      results.push({
        name: `telemetry-stats ${name} p50`,
        value: m.p50,
        baseline: BUDGET_MS,
        unit: 'ms',
        target: { op: '<=' as const, ratio: 1 },
        extra: { p95: m.p95, records: RECORDS, iterations: ITERATIONS, naiveScanMs: naiveMs },
      });
    }
    for (const [name, url] of extras) {
      const m = await time(url);
      console.log(`  (not gated) ${name}: p50 ${m.p50.toFixed(2)} ms, p95 ${m.p95.toFixed(2)} ms`);
    }
    await app.close();
    await handle.close();
    process.exitCode = report(results) ? 0 : 1;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
