/**
 * POST /upload throughput of svc-telemetry with durable writes (SQLite; each 201 is sent only after the ingest
 * journal holding its record was fsync'd, see docs/telemetry.md) against a bare node:http server that reads
 * the body and answers 201. Each server runs in its own child process; rounds alternate; the median ratio must be >= 0.5.
 * svc-telemetry is the built binary (`npm install` builds it); BENCH_FROM_SOURCE=1 runs the TypeScript source
 * instead, to try a change without building.
 *
 *   npm run bench -- telemetry-ingest [rounds=5] [seconds=5]
 *
 * Five rounds by default: on a 2-core machine shared with autocannon a single round scatters by ±25 %, and the
 * median of three still moved by ±0.08.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { median, report } from './lib/report.js';

const self = new URL(import.meta.url).pathname;
const cli = new URL('../apps/telemetry/dist/cli.js', import.meta.url).pathname;

async function serve(kind: string): Promise<void> {
  if (kind === 'bare') {
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        Buffer.concat(chunks);
        res.writeHead(201, { 'content-type': 'application/json' }).end('{"message":"ok"}');
      });
    });
    server.listen(0, '127.0.0.1', () => {
      const a = server.address();
      process.stdout.write(`READY http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}\n`);
    });
    return;
  }
  const { loadConfig } = await import('../apps/telemetry/src/config/index.js');
  const { startTelemetry } = await import('../apps/telemetry/src/main.js');
  const dataDir = process.env.BENCH_DATA_DIR!;
  const config = loadConfig({
    SVC_TELEMETRY_DATA_DIR: dataDir,
    SVC_TELEMETRY_PORT: '0',
    SVC_TELEMETRY_HOST: '127.0.0.1',
    SVC_TELEMETRY_RATE_LIMIT: '0',
    SVC_TELEMETRY_DURABLE_WRITES: process.env.BENCH_DURABLE ?? 'true',
    LOG_LEVEL: 'warn',
  });
  const running = await startTelemetry(config);
  process.on('SIGTERM', () => void running.close().then(() => process.exit(0)));
  process.stdout.write(`READY ${running.url}\n`);
}

/**
 * svc-telemetry as operators run it: the built `svc-telemetry` (dist/cli.js, made by `npm install`), as the
 * health benchmark runs svc. It prints its address in its start-up log line.
 */
function startShipped(dataDir: string): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [cli], {
    env: {
      ...process.env,
      SVC_TELEMETRY_DATA_DIR: dataDir,
      SVC_TELEMETRY_PORT: '0',
      SVC_TELEMETRY_HOST: '127.0.0.1',
      SVC_TELEMETRY_RATE_LIMIT: '0',
      SVC_TELEMETRY_DURABLE_WRITES: process.env.BENCH_DURABLE ?? 'true',
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return ready(child, /"url":"(http:[^"]+)"/, 'svc-telemetry');
}

function ready(child: ChildProcess, pattern: RegExp, what: string): Promise<{ url: string; child: ChildProcess }> {
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const m = pattern.exec(out);
      if (m) resolve({ url: m[1]!, child });
    });
    child.on('exit', (code) => reject(new Error(`${what} exited with ${code}`)));
  });
}

function start(kind: string, dataDir: string): Promise<{ url: string; child: ChildProcess }> {
  if (kind === 'telemetry' && !process.env.BENCH_FROM_SOURCE) return startShipped(dataDir);
  const child = spawn(process.execPath, ['--import', 'tsx', self, '--serve', kind], {
    env: { ...process.env, BENCH_DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return ready(child, /READY (\S+)/, `${kind} server`);
}

function body(): string {
  return JSON.stringify({
    ct_type: 1,
    type: 'lxc',
    disk_size: 8,
    core_count: 2,
    ram_size: 2048,
    os_type: 'debian',
    os_version: '12',
    disableip6: '',
    nsapp: 'pihole',
    method: 'default',
    hv_version: '8.3.2',
    status: 'installing',
    random_id: randomUUID(),
  });
}

async function load(url: string, seconds: number): Promise<{ rps: number; non2xx: number; p99: number }> {
  const r = await autocannon({
    url: `${url}/upload`,
    connections: 50,
    duration: seconds,
    requests: [
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        setupRequest: (req) => ({ ...req, body: body() }),
      },
    ],
  });
  return { rps: r.requests.average, non2xx: r.non2xx + r.errors, p99: r.latency.p99 };
}

async function main(): Promise<void> {
  const rounds = Number(process.argv[2] ?? 5);
  const seconds = Number(process.argv[3] ?? 5);
  const dataDir = mkdtempSync(join(tmpdir(), 'telemetry-ingest-bench-'));
  const bare = await start('bare', dataDir);
  const svc = await start('telemetry', dataDir);
  const ours: number[] = [];
  const base: number[] = [];
  try {
    await load(svc.url, 1); // warm-up: JIT, prepared statements, WAL file
    await load(bare.url, 1);
    for (let i = 1; i <= rounds; i++) {
      const b = await load(bare.url, seconds);
      const s = await load(svc.url, seconds);
      if (s.non2xx > 0 || b.non2xx > 0) throw new Error(`non-2xx answers: telemetry ${s.non2xx}, bare ${b.non2xx}`);
      base.push(b.rps);
      ours.push(s.rps);
      console.log(
        `round ${i}/${rounds}: bare ${Math.round(b.rps)} req/s (p99 ${b.p99} ms), /upload ${Math.round(s.rps)} req/s (p99 ${s.p99} ms)`,
      );
    }
  } finally {
    bare.child.kill('SIGTERM');
    svc.child.kill('SIGTERM');
    await new Promise((r) => svc.child.once('exit', r));
    rmSync(dataDir, { recursive: true, force: true });
  }
  const ok = report([
    {
      name: 'telemetry-ingest POST /upload (durable, new record each)',
      value: median(ours),
      baseline: median(base),
      unit: 'req/s',
      target: { op: '>=', ratio: 0.5 },
      extra: { rounds: ours.map(Math.round), baselineRounds: base.map(Math.round), seconds, connections: 50 },
    },
  ]);
  process.exit(ok ? 0 : 1);
}

const i = process.argv.indexOf('--serve');
if (i >= 0) void serve(process.argv[i + 1]!);
else await main();
