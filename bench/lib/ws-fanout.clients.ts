// Client side of the ws-fanout benchmark: N WebSocket clients in one process, timing each delta's arrival
// against the change timestamp inside it. Reads its job from stdin, prints one JSON line when connected and
// one with the results.
import { createInterface } from 'node:readline';
import WebSocket from 'ws';

const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
const job = JSON.parse((await lines.next()).value as string) as {
  url: string;
  headers: Record<string, string>;
  clients: number;
  updates: number;
};
const now = () => performance.timeOrigin + performance.now();
const latencies: number[] = [];
const lastPerUpdate = new Map<string, number>();
let bytes = 0;
let deltas = 0;
const expected = job.clients * job.updates;
let finish: () => void;
const finished = new Promise<void>((r) => {
  finish = r;
});

function onMessage(raw: Buffer): void {
  const t = now();
  // Only the header matters here; parsing every payload would make the clients the bottleneck.
  const head = raw.subarray(0, 160).toString();
  if (!head.startsWith('{"type":"rawData"')) return;
  const m = /"lastUpdate":([0-9.]+)/.exec(head);
  if (!m) return;
  const lat = t - Number(m[1]);
  latencies.push(lat);
  lastPerUpdate.set(m[1]!, Math.max(lastPerUpdate.get(m[1]!) ?? 0, lat));
  bytes += raw.length;
  if (++deltas === expected) finish();
}

function open(): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(job.url, { headers: job.headers, perMessageDeflate: false });
    ws.on('message', onMessage);
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}

const sockets: WebSocket[] = [];
for (let i = 0; i < job.clients; i += 50) {
  const batch = Math.min(50, job.clients - i);
  sockets.push(...(await Promise.all(Array.from({ length: batch }, open))));
}
console.log(JSON.stringify({ connected: sockets.length }));
const timeout = setTimeout(() => finish(), (job.updates + 20) * 1000);
await finished;
clearTimeout(timeout);
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))] ?? Number.NaN;
};
const out = {
  received: deltas,
  expected,
  p50: pct(latencies, 50),
  p99: pct(latencies, 99),
  lastClientP99: pct([...lastPerUpdate.values()], 99),
  bytesPerUpdate: bytes / Math.max(1, deltas),
};
for (const s of sockets) s.terminate();
// Exit only once the line is flushed: a pipe write is asynchronous.
process.stdout.write(`${JSON.stringify(out)}\n`, () => process.exit(0));
