// `npm run bench -- health`: GET /api/health through the full svc server vs a bare node:http server answering
// the same JSON, alternating rounds, median ratio (target >= 0.7). Also cold start and idle RSS.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { load } from './lib/http-load.js';
import { median, report } from './lib/report.js';

const root = new URL('..', import.meta.url).pathname;
const cli = join(root, 'apps/server/dist/cli.js');
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const seconds = Number(process.env.BENCH_SECONDS ?? 5);

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

async function waitHealthy(url: string, deadlineMs: number): Promise<void> {
  const until = Date.now() + deadlineMs;
  for (;;) {
    try {
      const r = await fetch(url);
      if (r.status === 200) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > until) throw new Error(`${url} did not answer in ${deadlineMs} ms`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

async function startSvc(): Promise<{ child: ChildProcess; url: string; startMs: number; dir: string }> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-'));
  const t0 = performance.now();
  const child = spawn(process.execPath, [cli, 'serve'], {
    env: {
      PATH: process.env.PATH,
      SVC_PORT: String(port),
      SVC_HOST: '127.0.0.1',
      SVC_DATA_DIR: dir,
      LOG_LEVEL: 'warn',
      // The limiter still runs on every request; it must not turn the load into 429s.
      SVC_RATE_LIMIT_DEFAULT: '100000000/1m',
    },
    stdio: 'ignore',
  });
  const url = `http://127.0.0.1:${port}/api/health`;
  await waitHealthy(url, 10_000);
  return { child, url, startMs: performance.now() - t0, dir };
}

/** The same JSON bytes svc sends, from the simplest possible server. */
const bareSource = `
const http = require('node:http');
const started = Date.now();
http.createServer((req, res) => {
  const now = Date.now();
  const body = JSON.stringify({ status: 'healthy', timestamp: Math.floor(now / 1000), uptime: Math.floor((now - started) / 1000), devModeSSH: false, dependencies: { database: true } });
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'x-request-id': require('node:crypto').randomUUID() });
  res.end(body);
}).listen(Number(process.argv[1]), '127.0.0.1', () => console.log('ready'));
`;

async function startBare(): Promise<{ child: ChildProcess; url: string }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['-e', bareSource, String(port)], { stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}/api/health`;
  await waitHealthy(url, 5_000);
  return { child, url };
}

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

async function main() {
  const starts: number[] = [];
  for (let i = 0; i < 5; i++) {
    const s = await startSvc();
    starts.push(s.startMs);
    s.child.kill('SIGTERM');
    rmSync(s.dir, { recursive: true, force: true });
  }
  const svc = await startSvc();
  await new Promise((r) => setTimeout(r, 2000));
  const earlyRss = rssMb(svc.child.pid!);
  // V8 gives start-up garbage back after some idle seconds; "idle" is the settled figure.
  await new Promise((r) => setTimeout(r, 28_000));
  const idleRss = rssMb(svc.child.pid!);
  const bare = await startBare();
  const bareIdle = rssMb(bare.child.pid!);

  const ratios: number[] = [];
  const svcRps: number[] = [];
  const bareRps: number[] = [];
  // Warm-up, the same for both: req/s means a running server's steady state, after V8 has optimised the
  // request path (svc's is longer than the bare server's, so it needs a few seconds of traffic for that).
  await load({ url: svc.url, durationSeconds: 5 });
  await load({ url: bare.url, durationSeconds: 5 });
  for (let i = 0; i < rounds; i++) {
    const b = await load({ url: bare.url, durationSeconds: seconds });
    const s = await load({ url: svc.url, durationSeconds: seconds });
    if (s.errors > 0) throw new Error(`svc answered ${s.errors} requests with errors`);
    bareRps.push(b.rps);
    svcRps.push(s.rps);
    ratios.push(s.rps / b.rps);
    console.log(`round ${i + 1}: bare ${Math.round(b.rps)} req/s, svc ${Math.round(s.rps)} req/s (p99 ${s.p99} ms)`);
  }
  svc.child.kill('SIGTERM');
  bare.child.kill('SIGTERM');
  rmSync(svc.dir, { recursive: true, force: true });

  const ok = report([
    {
      name: 'health req/s (median of per-round ratios)',
      value: median(ratios) * median(bareRps),
      baseline: median(bareRps),
      unit: 'req/s',
      target: { op: '>=', ratio: 0.7 },
      extra: { ratios, svcRps, bareRps },
    },
    {
      name: 'cold start to first 200 (median of 5)',
      value: median(starts),
      baseline: 1500,
      unit: 'ms',
      target: { op: '<=', ratio: 1 },
    },
    {
      name: `idle RSS 30 s after start (2 s after start: ${earlyRss.toFixed(1)} MB; bare node:http: ${bareIdle.toFixed(1)} MB)`,
      value: idleRss,
      baseline: 80,
      unit: 'MB',
      target: { op: '<=', ratio: 1 },
    },
  ]);
  process.exit(ok ? 0 : 1);
}

main().catch((err) => {
  console.error(err);
  process.exit(2);
});
