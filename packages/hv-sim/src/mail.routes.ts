import { nodeNow } from './metrics.js';
import { hash32, smooth } from './noise.js';
import { b01, type Ctx, int, page, type RouteDef, reachNode, str } from './routes.common.js';

export const MAIL_VERSION = { version: '9.1.0', release: '9.1', repoid: '09158948' };

/** Statistics window like PMG: starttime/endtime, or year/month/day, default the last 24 hours. */
function window(c: Ctx): [number, number] {
  const year = int(c, 'year');
  if (year !== undefined) {
    const month = int(c, 'month');
    const day = int(c, 'day');
    const start = Date.UTC(year, (month ?? 1) - 1, day ?? 1) / 1000;
    const end = day ? start + 86400 : month ? Date.UTC(year, month, 1) / 1000 : Date.UTC(year + 1, 0, 1) / 1000;
    return [Math.max(start, c.world.epochSec - 365 * 86400), Math.max(start, Math.min(end, c.nowSec))];
  }
  const end = int(c, 'endtime') ?? c.nowSec;
  // The simulated gateway was installed a year before start-up: no mail before that, and no unbounded loops.
  const start = Math.max(int(c, 'starttime') ?? end - 86400, c.world.epochSec - 365 * 86400);
  return [start, Math.max(start, Math.min(end, c.nowSec))];
}

/** Mails per second at time t: a daily rhythm plus noise, scaled by the number of nodes. */
function rate(c: Ctx, t: number): number {
  const day = 0.6 + 0.4 * Math.sin(((t % 86400) / 86400) * 2 * Math.PI - Math.PI / 2);
  return c.world.nodes.length * 0.05 * day * (0.7 + 0.6 * smooth(c.world.seed, 900, t, 3600));
}

/** Counters for [start, end): integrates the rate hour by hour so sums over buckets add up. */
function counts(c: Ctx, start: number, end: number): Record<string, number> {
  let inbound = 0;
  let outbound = 0;
  for (let t = start; t < end; t += 3600) {
    const span = Math.min(3600, end - t);
    inbound += Math.round(rate(c, t) * span);
    outbound += Math.round(rate(c, t) * span * 0.3);
  }
  const p = (x: number, f: number) => Math.floor(x * f);
  return {
    count: inbound + outbound,
    count_in: inbound,
    count_out: outbound,
    spamcount_in: p(inbound, 0.22),
    spamcount_out: p(outbound, 0.01),
    viruscount_in: p(inbound, 0.003),
    viruscount_out: 0,
    bounces_in: p(inbound, 0.02),
    bounces_out: p(outbound, 0.01),
    rbl_rejects: p(inbound, 0.12),
    pregreet_rejects: p(inbound, 0.03),
  };
}

function mailStats(c: Ctx): Record<string, number> {
  const [start, end] = window(c);
  const k = counts(c, start, end);
  return {
    ...k,
    glcount: Math.floor(k.count_in! * 0.05),
    spfcount: Math.floor(k.count_in! * 0.01),
    junk_in: k.spamcount_in! + k.viruscount_in!,
    junk_out: k.spamcount_out! + k.viruscount_out!,
    bytes_in: k.count_in! * 48000,
    bytes_out: k.count_out! * 31000,
    avptime: 1.42,
  };
}

function mailCount(c: Ctx): unknown[] {
  const [start, end] = window(c);
  const span = int(c, 'timespan', 3600)!;
  const out: unknown[] = [];
  // Bounded like a real statistics database would be by its retention.
  for (let t = start, i = 0; t < end && i < 10000; t += span, i++)
    out.push({ index: i, time: t, ...counts(c, t, Math.min(end, t + span)) });
  return out;
}

function spamScores(c: Ctx): unknown[] {
  const [start, end] = window(c);
  const k = counts(c, start, end);
  const weights = [0.7, 0.05, 0.04, 0.03, 0.03, 0.03, 0.02, 0.02, 0.02, 0.02, 0.04];
  return weights.map((w, level) => {
    const count = Math.floor(k.count_in! * w);
    return { level, count, ratio: k.count_in ? count / k.count_in : 0 };
  });
}

function domains(c: Ctx): unknown[] {
  const [start, end] = window(c);
  const k = counts(c, start, end);
  return ['example.com', 'example.org', 'example.net'].map((domain, i) => {
    const f = [0.6, 0.3, 0.1][i]!;
    const x = (n: number) => Math.floor(n * f);
    return {
      domain,
      count_in: x(k.count_in!),
      count_out: x(k.count_out!),
      spamcount_in: x(k.spamcount_in!),
      spamcount_out: x(k.spamcount_out!),
      viruscount_in: x(k.viruscount_in!),
      viruscount_out: 0,
      bytes_in: x(k.count_in!) * 48000,
      bytes_out: x(k.count_out!) * 31000,
    };
  });
}

function nodeStatus(c: Ctx): Record<string, unknown> {
  const n = reachNode(c, str(c, 'node')!);
  const m = nodeNow(c.world, n, c.nowSec);
  return {
    insync: b01(n.online),
    time: c.nowSec,
    uptime: m.uptime,
    loadavg: m.loadavg.map((x) => x.toFixed(2)),
    kversion: 'Linux 6.14.8-2-pve #1 SMP PREEMPT_DYNAMIC PMX 6.14.8-2',
    cpuinfo: { model: 'QEMU Virtual CPU version 2.5+', cpus: m.maxcpu, sockets: 1 },
    cpu: m.cpu,
    wait: m.wait,
    memory: { total: m.maxmem, used: m.mem, free: m.maxmem - m.mem },
    swap: { total: 0, used: 0, free: 0 },
    rootfs: { total: m.rootTotal, used: m.rootUsed, avail: m.rootTotal - m.rootUsed, free: m.rootTotal - m.rootUsed },
    pmgversion: `pmg-api/${MAIL_VERSION.version}/${MAIL_VERSION.repoid}`,
    'current-kernel': {
      sysname: 'Linux',
      release: '6.14.8-2-pve',
      version: '#1 SMP PREEMPT_DYNAMIC PMX 6.14.8-2',
      machine: 'x86_64',
    },
    'boot-info': { mode: 'legacy-bios' },
  };
}

function clusterStatus(c: Ctx): unknown[] {
  const w = c.world;
  if (w.nodes.length < 2 && str(c, 'list_single_node') !== '1') return [];
  return w.nodes.map((n) => ({
    cid: n.index + 1,
    name: n.name,
    ip: n.ip,
    type: n.index === 0 ? 'master' : 'node',
    fingerprint: c.fingerprint,
    hostrsapubkey: `AAAAB3NzaC1yc2EAAAADAQABAAABAQ${hash32(n.index).toString(16)}`,
    rootrsapubkey: `AAAAB3NzaC1yc2EAAAADAQABAAABAQ${hash32(n.index + 99).toString(16)}`,
  }));
}

const QUEUES = ['deferred', 'active', 'incoming', 'hold'];

function queueEntries(c: Ctx, node: string, queue: string): Array<Record<string, unknown>> {
  const n = reachNode(c, node);
  const size = queue === 'deferred' ? c.world.perNode : queue === 'active' ? Math.min(2, c.world.perNode) : 0;
  return Array.from({ length: size }, (_, i) => {
    const h = hash32(c.world.seed ^ (n.index * 100003 + i))
      .toString(16)
      .toUpperCase()
      .padStart(10, '0');
    return {
      queue_name: queue,
      queue_id: h.slice(0, 10),
      arrival_time: c.nowSec - 300 - ((i * 911) % 86400),
      message_size: 2048 + ((i * 7919) % 200000),
      sender: `sender${i}@example.org`,
      receiver: `user${i % 17}@example.com`,
      reason: queue === 'deferred' ? 'connect to mx.example.com[192.0.2.25]:25: Connection timed out' : '',
    };
  });
}

function queueList(c: Ctx) {
  const filter = str(c, 'filter');
  let items = queueEntries(c, str(c, 'node')!, str(c, 'queue')!);
  if (filter) items = items.filter((e) => String(e.sender).includes(filter) || String(e.receiver).includes(filter));
  const field = str(c, 'sortfield');
  if (field) {
    const dir = str(c, 'sortdir') === 'DESC' ? -1 : 1;
    items.sort((a, b) => (a[field]! < b[field]! ? -dir : a[field]! > b[field]! ? dir : 0));
  }
  return page(items, c, 50);
}

function qshape(c: Ctx): unknown[] {
  const items = queueEntries(c, str(c, 'node')!, str(c, 'queue') ?? 'deferred');
  const buckets = ['5m', '10m', '20m', '40m', '80m', '160m', '320m', '640m', '1280m', '1280m+'];
  const row = (domain: string, list: typeof items) => {
    const r: Record<string, unknown> = { domain, total: list.length };
    for (const b of buckets) r[b] = 0;
    for (const e of list) {
      const ageMin = (c.nowSec - (e.arrival_time as number)) / 60;
      const idx = buckets.findIndex((b) => !b.endsWith('+') && ageMin <= Number.parseInt(b, 10));
      const key = buckets[idx < 0 ? buckets.length - 1 : idx]!;
      r[key] = (r[key] as number) + 1;
    }
    return r;
  };
  return items.length ? [row('TOTAL', items), row('example.com', items)] : [row('TOTAL', items)];
}

function login(c: Ctx): Record<string, unknown> {
  const r = c.auth.login(str(c, 'username') ?? '', str(c, 'password') ?? '', str(c, 'realm') ?? 'pam');
  return { username: r.user, ticket: r.ticket, CSRFPreventionToken: r.csrf, role: 'audit' };
}

function backups(c: Ctx): unknown[] {
  const n = reachNode(c, str(c, 'node')!);
  const today = Math.floor(c.nowSec / 86400) * 86400;
  return [1, 2, 3].map((d) => {
    const t = today - d * 86400 + 7200;
    const stamp = new Date(t * 1000).toISOString().slice(0, 10).replaceAll('-', '_');
    return {
      filename: `pmg-backup_${stamp}_${t.toString(16).toUpperCase()}.tgz`,
      size: 180000 + n.index * 10 + d,
      timestamp: t,
    };
  });
}

export const mailRoutes: RouteDef[] = [
  ['GET', '/version', () => MAIL_VERSION],
  ['POST', '/access/ticket', login],
  ['GET', '/nodes', (c) => c.world.nodes.map((n) => ({ node: n.name }))],
  ['GET', '/nodes/{node}/status', nodeStatus],
  ['GET', '/config/cluster/status', clusterStatus],
  ['GET', '/statistics/mail', mailStats],
  ['GET', '/statistics/mailcount', mailCount],
  ['GET', '/statistics/spamscores', spamScores],
  ['GET', '/statistics/domains', domains],
  [
    'GET',
    '/nodes/{node}/postfix/queue',
    (c) => {
      reachNode(c, str(c, 'node')!);
      return QUEUES.map((name) => ({ name }));
    },
  ],
  ['GET', '/nodes/{node}/postfix/queue/{queue}', queueList],
  ['GET', '/nodes/{node}/postfix/qshape', qshape],
  ['GET', '/quarantine/spamstatus', (c) => quarantine(c, true)],
  ['GET', '/quarantine/virusstatus', (c) => quarantine(c, false)],
  // Not in the schema extract; polled by svc (shapes as the PMG GUI reads them).
  [
    'GET',
    '/quarantine/attachmentstatus',
    (c) => ({ count: 3, avgbytes: 512000, mbytes: Math.round(c.world.nodes.length * 1.47 * 100) / 100 }),
  ],
  [
    'GET',
    '/config/domains',
    () => [
      { domain: 'example.com', comment: '' },
      { domain: 'example.org', comment: 'secondary' },
    ],
  ],
  ['GET', '/nodes/{node}/backup', backups],
];

function quarantine(c: Ctx, spam: boolean): Record<string, number> {
  const k = counts(c, c.nowSec - 7 * 86400, c.nowSec);
  const count = spam ? Math.floor(k.spamcount_in! * 0.4) : k.viruscount_in!;
  const avgbytes = spam ? 38211 : 120033;
  // mbytes: MiB rounded up to 4 KiB blocks per mail, as PMG computes it.
  const mbytes = Math.round(((count * Math.ceil(avgbytes / 4096) * 4096) / 1024 ** 2) * 100) / 100;
  return spam ? { count, avgbytes, avgspam: 12.7, mbytes } : { count, avgbytes, mbytes };
}
