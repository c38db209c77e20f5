// `npm run bench -- resources-list`: p99 of a filtered, sorted, paged GET /api/resources at 10k and 100k
// resources (synthetic hv estate in the live state, through buildApp on loopback) against the limit:
// (a) in-process Array filter + sort + slice over the same resource objects, plus (b) a bare node:http
// server sending the same response bytes. Sequential requests, one keep-alive connection. Target <= 2x.

import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createMemoryLogger, FakeClock } from '@svc/platform';
import { Pool } from 'undici';
import { buildApp } from '../apps/server/src/app.js';
import type { Resource } from '../apps/server/src/areas/resources/index.js';
import { loadConfig } from '../apps/server/src/config/index.js';
import { buildInfo } from '../apps/server/src/platform/build-info.js';
import { migrateServerDatabase, openServerDatabase } from '../apps/server/src/platform/db/index.js';
import { LiveState } from '../apps/server/src/state/index.js';
import { syntheticEstate } from '../apps/server/src/testing/estate.js';
import { percentile, type Result, report } from './lib/report.js';

const AT = Date.UTC(2026, 10, 22, 12, 0, 0);
const requests = Number(process.env.BENCH_REQUESTS ?? 300);
const sizes = (process.env.BENCH_SIZES ?? '10000,100000').split(',').map(Number);

/** What the request asks for, written once as a query string and once as plain array code. */
const queries = [
  {
    name: 'vm online prod by lastSeen desc, page 1',
    qs: 'type=vm&status=online&tags=prod&sort=lastSeen&order=desc&limit=50&page=1',
    page: 1,
  },
  {
    name: 'vm online prod by lastSeen desc, page 20',
    qs: 'type=vm&status=online&tags=prod&sort=lastSeen&order=desc&limit=50&page=20',
    page: 20,
  },
  { name: 'name contains "vm-00" by name, page 1', qs: 'q=vm-00&limit=50', page: 1 },
];

function inProcess(all: readonly Resource[], i: number, page: number): Resource[] {
  const start = (page - 1) * 50;
  if (i < 2) {
    return all
      .filter((r) => r.type === 'vm' && r.status === 'online' && r.tags.includes('prod'))
      .sort((a, b) => b.lastSeen - a.lastSeen)
      .slice(start, start + 50);
  }
  return all
    .filter((r) => r.name.toLowerCase().includes('vm-00'))
    .sort((a, b) => a.name.localeCompare(b.name))
    .slice(start, start + 50);
}

async function timeRequests(pool: Pool, path: string): Promise<{ p99: number; p50: number; bytes: number }> {
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i < requests + 20; i++) {
    const t0 = performance.now();
    const res = await pool.request({ method: 'GET', path });
    const body = await res.body.arrayBuffer();
    if (res.statusCode !== 200) throw new Error(`${path}: ${res.statusCode}`);
    if (i >= 20) times.push(performance.now() - t0);
    bytes = body.byteLength;
  }
  return { p99: percentile(times, 99), p50: percentile(times, 50), bytes };
}

async function runSize(guests: number): Promise<Result[]> {
  const state = new LiveState({ clock: { now: () => AT } });
  state.applyPoll('hv1', syntheticEstate('hv1', guests, AT));
  const config = loadConfig({
    SVC_DATA_DIR: mkdtempSync(join(tmpdir(), 'svc-bench-')),
    SVC_RATE_LIMIT_DEFAULT: '100000000/1m',
    LOG_LEVEL: 'error',
  });
  const db = openServerDatabase({ ...config, dataDir: ':memory:' });
  await migrateServerDatabase(db);
  const app = await buildApp({
    config,
    db,
    state,
    log: createMemoryLogger('error').logger,
    build: buildInfo(),
    clock: new FakeClock(AT),
    // A token principal without the per-request hash lookup, so the figure is the list path itself.
    authenticate: async () => ({
      kind: 'token',
      username: 'bench',
      isAdmin: false,
      scopes: ['monitoring:read'],
      orgId: 'default',
    }),
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const port = (app.server.address() as { port: number }).port;
  const pool = new Pool(`http://127.0.0.1:${port}`, { connections: 1 });

  const t0 = performance.now();
  const first = await pool.request({ method: 'GET', path: '/api/resources?limit=1' });
  const meta = ((await first.body.json()) as { meta: { total: number } }).meta;
  const buildMs = performance.now() - t0;

  const results: Result[] = [];
  for (const [i, q] of queries.entries()) {
    const all = await snapshotOf(state);
    const svc = await timeRequests(pool, `/api/resources?${q.qs}`);
    const inProc: number[] = [];
    for (let k = 0; k < requests + 20; k++) {
      const s = performance.now();
      inProcess(all, i, q.page);
      if (k >= 20) inProc.push(performance.now() - s);
    }
    const body = Buffer.alloc(svc.bytes, 'x');
    const bare = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
      res.end(body);
    });
    await new Promise<void>((r) => bare.listen(0, '127.0.0.1', r));
    const barePool = new Pool(`http://127.0.0.1:${(bare.address() as { port: number }).port}`, { connections: 1 });
    const bareT = await timeRequests(barePool, '/');
    await barePool.close();
    bare.close();
    const limit = percentile(inProc, 99) + bareT.p99;
    results.push({
      name: `resources-list ${meta.total.toLocaleString('en-US')} resources: ${q.name} (p99)`,
      value: svc.p99,
      baseline: limit,
      unit: 'ms',
      target: { op: '<=', ratio: 2 },
      extra: {
        svcP50: svc.p50,
        inProcessP99: percentile(inProc, 99),
        bareServerP99: bareT.p99,
        responseBytes: svc.bytes,
        firstRequestAfterDeltaMs: buildMs,
      },
    });
  }
  await pool.close();
  await app.close();
  await db.close();
  return results;
}

/** The same merged resources the server holds, built the same way (outside the server, for the limit). */
async function snapshotOf(state: LiveState): Promise<readonly Resource[]> {
  const { ResourceView } = await import('../apps/server/src/areas/resources/resources.view.js');
  cache ??= new ResourceView({ state, overrides: () => [], tagsFor: () => undefined }).get().all;
  return cache;
}
let cache: readonly Resource[] | undefined;

const all: Result[] = [];
for (const size of sizes) {
  cache = undefined;
  const rs = await runSize(size);
  for (const r of rs) console.log(`  ${r.name}: extra ${JSON.stringify(r.extra)}`);
  all.push(...rs);
}
process.exit(report(all) ? 0 : 1);
