// Server side of the ws-fanout benchmark: `svc` (the real app, /ws) or `bare` (a plain ws server that
// serialises each delta once and sends the same bytes to every socket). Driven over stdin/stdout as JSON lines.
import { createInterface } from 'node:readline';
import { systemClock } from '@svc/platform';
import { WebSocketServer } from 'ws';
import { hvPoll, range } from '../../apps/server/src/realtime/realtime.fixtures.js';
import { LiveState } from '../../apps/server/src/state/index.js';
import { startSvc } from './svc-server.js';

const [kind, guestsArg] = process.argv.slice(2);
const vmids = range(Number(guestsArg ?? 2500));
const now = () => performance.timeOrigin + performance.now();
const cpu = new Map<number, number>(vmids.map((v) => [v, 0.1]));
const state = new LiveState({ clock: systemClock });
state.applyPoll('lab', hvPoll('lab', now(), vmids));

let send: (changedIds: Set<number>, at: number, u: number) => number;
if (kind === 'svc') {
  const svc = await startSvc(state);
  console.log(JSON.stringify({ url: `ws://127.0.0.1:${svc.port}/ws`, headers: { 'x-api-token': svc.token } }));
  send = (changed, at) => {
    const poll = hvPoll('lab', at, vmids, (v) => cpu.get(v)!);
    state.applyPoll('lab', poll);
    return Buffer.byteLength(JSON.stringify(poll.vms.filter((g) => changed.has(g.vmid))));
  };
} else {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1', perMessageDeflate: false });
  await new Promise((r) => wss.once('listening', r));
  const port = (wss.address() as { port: number }).port;
  console.log(JSON.stringify({ url: `ws://127.0.0.1:${port}/`, headers: {} }));
  send = (changed, at, u) => {
    const recs = hvPoll('lab', at, vmids, (v) => cpu.get(v)!).vms.filter((g) => changed.has(g.vmid));
    const data = { prevSeq: u - 1, lastUpdate: at, upserts: { vms: recs }, removed: {} };
    const bytes = Buffer.from(JSON.stringify({ type: 'rawData', seq: u, data, timestamp: at }));
    for (const c of wss.clients) c.send(bytes, { binary: false });
    return Buffer.byteLength(JSON.stringify(recs));
  };
}

const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
const { value } = await lines.next();
const { updates, changePerUpdate } = JSON.parse(value as string) as { updates: number; changePerUpdate: number };
let minimal = 0;
for (let u = 1; u <= updates; u++) {
  await new Promise((r) => setTimeout(r, 1000));
  const changed = new Set<number>();
  for (let i = 0; i < changePerUpdate; i++) {
    const v = vmids[(u * changePerUpdate + i) % vmids.length]!;
    cpu.set(v, 0.2 + u / 1000);
    changed.add(v);
  }
  minimal += send(changed, now(), u);
}
console.log(JSON.stringify({ minimalBytes: minimal / updates }));
