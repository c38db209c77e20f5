/**
 * W5: /ws fan-out to 1,000 clients while 1% of 2,500 guests change each second, against a bare `ws` server
 * that serialises the same delta once and sends the same bytes to every socket. The clients run in a child
 * process; each server (svc, bare) runs in its own child process, interleaved bare, svc, bare, svc...
 * Latency = client receive time - the change's timestamp inside the payload (same host, same clock).
 * Usage: npm run bench -- ws-fanout [clients] [guests] [updates] [reps]
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { median, report } from './lib/report.js';

const [clients = 1000, guests = 2500, updates = 15, reps = 2] = process.argv.slice(2, 6).map(Number);
const self = new URL(import.meta.url).pathname;

interface ClientResult {
  received: number;
  expected: number;
  p50: number;
  p99: number;
  lastClientP99: number;
  bytesPerUpdate: number;
}

function child(args: string[]): { proc: ChildProcess; lines: AsyncIterableIterator<string> } {
  const proc = spawn(process.execPath, ['--import', 'tsx', ...args], { stdio: ['pipe', 'pipe', 'inherit'] });
  return { proc, lines: createInterface({ input: proc.stdout! })[Symbol.asyncIterator]() };
}

async function nextJson<T>(lines: AsyncIterableIterator<string>): Promise<T> {
  for (;;) {
    const { value, done } = await lines.next();
    if (done) throw new Error('child exited early');
    if (value.startsWith('{')) return JSON.parse(value) as T;
  }
}

/** One run: start a server child, connect the clients child, let the server change guests, collect results. */
async function run(kind: 'svc' | 'bare'): Promise<ClientResult & { minimalBytes: number }> {
  const server = child([new URL('./lib/ws-fanout.server.ts', import.meta.url).pathname, kind, String(guests)]);
  const ready = await nextJson<{ url: string; headers: Record<string, string> }>(server.lines);
  const cl = child([new URL('./lib/ws-fanout.clients.ts', import.meta.url).pathname]);
  cl.proc.stdin!.write(`${JSON.stringify({ ...ready, clients, updates })}\n`);
  await nextJson<{ connected: number }>(cl.lines);
  server.proc.stdin!.write(`${JSON.stringify({ updates, changePerUpdate: Math.round(guests / 100) })}\n`);
  const result = await nextJson<ClientResult>(cl.lines);
  const sent = await nextJson<{ minimalBytes: number }>(server.lines);
  server.proc.kill('SIGTERM');
  cl.proc.kill('SIGTERM');
  return { ...result, minimalBytes: sent.minimalBytes };
}

async function main() {
  console.log(`ws-fanout: ${clients} clients, ${guests} guests, ${updates} updates of 1% per run, ${reps} reps`);
  const bare: Awaited<ReturnType<typeof run>>[] = [];
  const svc: Awaited<ReturnType<typeof run>>[] = [];
  for (let i = 0; i < reps; i++) {
    bare.push(await run('bare'));
    svc.push(await run('svc'));
  }
  for (const r of [...bare, ...svc]) {
    if (r.received !== r.expected) console.log(`warning: ${r.received} of ${r.expected} deltas arrived`);
  }
  const p99 = (rs: ClientResult[]) => median(rs.map((r) => r.p99));
  const p50 = (rs: ClientResult[]) => median(rs.map((r) => r.p50));
  const last = (rs: ClientResult[]) => median(rs.map((r) => r.lastClientP99));
  const ratios = svc.map((s, i) => s.p99 / bare[i]!.p99);
  report([
    {
      name: 'ws-fanout p99 delivery (svc /ws vs bare ws)',
      value: p99(svc),
      baseline: p99(bare),
      unit: 'ms',
      target: { op: '<=', ratio: 2 },
      extra: {
        p50: { svc: p50(svc), bare: p50(bare) },
        lastClientP99: { svc: last(svc), bare: last(bare) },
        ratioSpread: [Math.min(...ratios), Math.max(...ratios)],
      },
    },
    {
      name: 'ws-fanout bytes per update per client (svc delta vs the changed records alone)',
      value: median(svc.map((r) => r.bytesPerUpdate)),
      baseline: median(svc.map((r) => r.minimalBytes)),
      unit: 'B',
      target: { op: '<=', ratio: 1.2 },
    },
  ]);
}

if (process.argv[1] === self) await main();
