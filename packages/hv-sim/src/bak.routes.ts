import { bakJobRoutes } from './bak.jobs.js';
import { gcStatus, snapSize, store, storeUsage, verifyUpid } from './bak.store.js';
import { nodeNow } from './metrics.js';
import { hash32 } from './noise.js';
import { backupTimes, type Ctx, type RouteDef, str } from './routes.common.js';
import type { GuestRec, NodeRec } from './types.js';
import { SimError } from './types.js';

export const BAK_VERSION = { version: '4.1', release: '2', repoid: '4940514b0f05d6cd6a5f711edfdd47c1fa41b537' };

const groupType = (g: GuestRec) => (g.type === 'qemu' ? 'vm' : 'ct');

function nodeStatus(c: Ctx): Record<string, unknown> {
  const host = c.world.nodes[0]!;
  const m = nodeNow(c.world, host, c.nowSec);
  const swap = 8 * 1024 ** 3;
  return {
    cpu: m.cpu,
    wait: m.wait,
    uptime: m.uptime,
    loadavg: m.loadavg,
    kversion: 'Linux 6.14.8-2-pve #1 SMP PREEMPT_DYNAMIC PMX 6.14.8-2',
    cpuinfo: { model: 'Intel(R) Xeon(R) Silver 4314 CPU @ 2.40GHz', sockets: 1, cpus: m.maxcpu },
    memory: { total: m.maxmem, used: m.mem, free: m.maxmem - m.mem },
    swap: { total: swap, used: 0, free: swap },
    root: { total: m.rootTotal, used: m.rootUsed, avail: m.rootTotal - m.rootUsed },
    info: { fingerprint: c.fingerprint },
    'current-kernel': {
      sysname: 'Linux',
      release: '6.14.8-2-pve',
      version: '#1 SMP PREEMPT_DYNAMIC PMX 6.14.8-2',
      machine: 'x86_64',
    },
    'boot-info': { mode: 'efi', secureboot: false },
  };
}

function datastores(c: Ctx): unknown[] {
  return c.world.nodes.map((n) => {
    const e: Record<string, unknown> = { store: n.name, 'mount-status': 'nonremovable', 'backend-type': 'filesystem' };
    if (!n.online) e.maintenance = 'type=offline,message=simulated outage';
    return e;
  });
}

function counts(c: Ctx, n: NodeRec): Record<string, unknown> {
  const out = { vm: { groups: 0, snapshots: 0 }, ct: { groups: 0, snapshots: 0 } };
  for (const g of c.world.guestsOf(n.name)) {
    const bucket = out[groupType(g)];
    bucket.groups++;
    bucket.snapshots += backupTimes(g.vmid, c.nowSec, 7).length;
  }
  return out;
}

function storeStatus(c: Ctx): Record<string, unknown> {
  const n = store(c);
  if (!n.online) throw new SimError(400, `datastore is in maintenance mode: offline`);
  const out: Record<string, unknown> = { ...storeUsage(c, n), 'backend-type': 'filesystem' };
  if (str(c, 'verbose') === 'true' || str(c, 'verbose') === '1') {
    out.counts = counts(c, n);
    out['gc-status'] = gcStatus(c, n);
  }
  return out;
}

function snapshots(c: Ctx): unknown[] {
  const n = store(c);
  const type = str(c, 'backup-type');
  const id = str(c, 'backup-id');
  const out: unknown[] = [];
  for (const g of c.world.guestsOf(n.name)) {
    if ((type && type !== groupType(g)) || (id && id !== String(g.vmid))) continue;
    const size = snapSize(c, g);
    const disk = g.type === 'qemu' ? 'drive-scsi0.img.fidx' : 'root.pxar.didx';
    for (const t of backupTimes(g.vmid, c.nowSec, 7)) {
      const files = [
        { filename: 'index.json.blob', size: 633, 'crypt-mode': 'none' },
        { filename: disk, size, 'crypt-mode': 'none' },
        { filename: 'client.log.blob', size: 2041, 'crypt-mode': 'none' },
      ];
      const e: Record<string, unknown> = {
        'backup-type': groupType(g),
        'backup-id': String(g.vmid),
        'backup-time': t,
        files,
        size,
        owner: 'root@pam',
        protected: false,
        comment: g.set.name ?? g.name,
      };
      // Snapshots older than a day have been verified; one in twenty-five failed verification.
      if (t < c.nowSec - 86400)
        e.verification = { state: hash32(g.vmid ^ t) % 25 === 0 ? 'failed' : 'ok', upid: verifyUpid(t + 7200, n.name) };
      out.push(e);
    }
  }
  return out;
}

function groups(c: Ctx): unknown[] {
  const n = store(c);
  return c.world.guestsOf(n.name).flatMap((g) => {
    const times = backupTimes(g.vmid, c.nowSec, 7);
    if (times.length === 0) return [];
    const disk = g.type === 'qemu' ? 'drive-scsi0.img.fidx' : 'root.pxar.didx';
    return [
      {
        'backup-type': groupType(g),
        'backup-id': String(g.vmid),
        'last-backup': times[0],
        'backup-count': times.length,
        files: ['index.json.blob', disk, 'client.log.blob'],
        owner: 'root@pam',
        comment: g.set.name ?? g.name,
      },
    ];
  });
}

function usage(c: Ctx): unknown[] {
  return c.world.nodes.map((n) => {
    const u = storeUsage(c, n);
    const delta = 86400;
    const start = Math.floor(c.nowSec / delta) * delta - 29 * delta;
    const history = Array.from(
      { length: 30 },
      (_, i) => Math.round((u.used / u.total) * (0.85 + (0.15 * i) / 29) * 1e6) / 1e6,
    );
    const growth = ((history[29]! - history[0]!) / (29 * delta)) * u.total;
    const out: Record<string, unknown> = {
      store: n.name,
      ...u,
      history,
      'history-start': start,
      'history-delta': delta,
      'mount-status': 'nonremovable',
      'backend-type': 'filesystem',
      'gc-status': gcStatus(c, n),
    };
    if (growth > 0) out['estimated-full-date'] = Math.floor(c.nowSec + u.avail / growth);
    return out;
  });
}

function login(c: Ctx): Record<string, unknown> {
  const r = c.auth.login(str(c, 'username') ?? '', str(c, 'password') ?? '');
  return { username: r.user, ticket: r.ticket, CSRFPreventionToken: r.csrf };
}

function createToken(c: Ctx): Record<string, unknown> {
  const tokenid = `${str(c, 'userid')}!${str(c, 'token-name')}`;
  if (c.auth.tokens.some((t) => t.tokenId === tokenid)) throw new SimError(400, `token '${tokenid}' already exists.`);
  const h = hash32(c.world.seed ^ c.auth.tokens.length)
    .toString(16)
    .padStart(8, '0');
  const value = `${h}-0b5c-4d2e-8f3a-${h}${h.slice(0, 4)}`;
  c.auth.tokens.push({ tokenId: tokenid, secret: value });
  return { tokenid, value };
}

export const bakRoutes: RouteDef[] = [
  ['GET', '/version', () => BAK_VERSION],
  ['POST', '/access/ticket', login],
  ['POST', '/access/users/{userid}/token/{token-name}', createToken],
  ['PUT', '/access/acl', () => null],
  ['GET', '/nodes/{node}/status', nodeStatus],
  ['GET', '/admin/datastore', datastores],
  ['GET', '/admin/datastore/{store}/status', storeStatus],
  ['GET', '/admin/datastore/{store}/snapshots', snapshots],
  ['GET', '/admin/datastore/{store}/groups', groups],
  [
    'GET',
    '/admin/datastore/{store}/namespace',
    (c) => {
      store(c);
      return [{ ns: '' }];
    },
  ],
  ['GET', '/status/datastore-usage', usage],
  ['GET', '/admin/datastore/{store}/gc', (c) => gcStatus(c, store(c))],
  ['GET', '/admin/datastore/{store}/rrd', storeRrd],
  ...bakJobRoutes,
];

const RRD_STEP: Record<string, number> = {
  hour: 60,
  day: 1800,
  week: 10800,
  month: 43200,
  year: 604800,
  decade: 6048000,
};

/** Datastore usage and I/O history (not in the schema extract; shape from the GUI's datastore graphs). */
function storeRrd(c: Ctx): unknown[] {
  const n = store(c);
  const step = RRD_STEP[str(c, 'timeframe') ?? 'hour'] ?? 60;
  const end = Math.floor(c.nowSec / step) * step;
  const out: unknown[] = [];
  for (let i = 69; i >= 0; i--) {
    const t = end - i * step;
    const u = storeUsage({ ...c, nowSec: t }, n);
    const io = (hash32(c.world.seed ^ n.index ^ t) % 5000000) + 100000;
    out.push({
      time: t,
      total: u.total,
      used: u.used,
      available: u.avail,
      read_bytes: io,
      write_bytes: io * 2,
      read_ios: io >> 12,
      write_ios: io >> 11,
      io_ticks: 0.01,
    });
  }
  return out;
}
