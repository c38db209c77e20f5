import { storagesOf, storageUsage } from './hv.storage.js';
import { guestNow, nodeNow } from './metrics.js';
import { hash32 } from './noise.js';
import { b01, type Ctx, type RouteDef, reachNode, str } from './routes.common.js';
import type { GuestRec, NodeRec } from './types.js';
import { SimError } from './types.js';

export const HV_VERSION = { version: '9.1.3', release: '9.1', repoid: 'e5010dce' };
const KERNEL = '6.14.8-2-pve';

function nodeListEntry(c: Ctx, n: NodeRec): Record<string, unknown> {
  if (!n.online) return { node: n.name, id: `node/${n.name}`, type: 'node', status: 'offline' };
  const m = nodeNow(c.world, n, c.nowSec);
  // One literal per shape: this runs for every node on every /nodes and /cluster/resources call.
  return {
    node: n.name,
    id: `node/${n.name}`,
    type: 'node',
    status: 'online',
    cpu: m.cpu,
    maxcpu: m.maxcpu,
    mem: m.mem,
    maxmem: m.maxmem,
    disk: m.rootUsed,
    maxdisk: m.rootTotal,
    uptime: m.uptime,
    level: '',
    ssl_fingerprint: c.fingerprint,
  };
}

function nodeStatus(c: Ctx): Record<string, unknown> {
  const n = reachNode(c, str(c, 'node')!);
  const m = nodeNow(c.world, n, c.nowSec);
  const swapTotal = 8 * 1024 ** 3;
  const swapUsed = Math.floor(swapTotal * 0.02 * m.cpu);
  return {
    cpu: m.cpu,
    wait: m.wait,
    idle: 0,
    uptime: m.uptime,
    loadavg: m.loadavg.map((x) => x.toFixed(2)),
    kversion: `Linux ${KERNEL} #1 SMP PREEMPT_DYNAMIC PMX ${KERNEL.replace('-pve', '')}`,
    cpuinfo: {
      model: 'AMD EPYC 7543P 32-Core Processor',
      cpus: m.maxcpu,
      cores: m.maxcpu / 2,
      sockets: 1,
      mhz: '2800.000',
      hvm: '1',
      user_hz: 100,
    },
    memory: { total: m.maxmem, used: m.mem, free: m.maxmem - m.mem, available: m.maxmem - Math.floor(m.mem * 0.9) },
    swap: { total: swapTotal, used: swapUsed, free: swapTotal - swapUsed },
    ksm: { shared: 0 },
    rootfs: { total: m.rootTotal, used: m.rootUsed, avail: m.rootTotal - m.rootUsed, free: m.rootTotal - m.rootUsed },
    pveversion: `pve-manager/${HV_VERSION.version}/${HV_VERSION.repoid}`,
    'current-kernel': {
      sysname: 'Linux',
      release: KERNEL,
      version: `#1 SMP PREEMPT_DYNAMIC PMX ${KERNEL}`,
      machine: 'x86_64',
    },
    'boot-info': { mode: 'efi', secureboot: 0 },
  };
}

function clusterStatus(c: Ctx): unknown[] {
  const w = c.world;
  const out: unknown[] = [];
  if (w.cluster) {
    const online = w.onlineCount();
    out.push({
      type: 'cluster',
      id: 'cluster',
      name: w.cluster,
      nodes: w.nodes.length,
      quorate: b01(online * 2 > w.nodes.length),
      version: w.nodes.length + 2,
    });
  }
  const members = w.cluster ? w.nodes : w.nodes.filter((n) => n.name === c.local);
  for (const n of members) {
    const e = { type: 'node', id: `node/${n.name}`, name: n.name, nodeid: w.cluster ? n.index + 1 : 0 };
    out.push({ ...e, ip: n.ip, online: b01(n.online), local: b01(n.name === c.local), level: '' });
  }
  return out;
}

export function guestResource(c: Ctx, g: GuestRec, node: NodeRec): Record<string, unknown> {
  const name = g.set.name ?? g.name;
  const id = `${g.type}/${g.vmid}`;
  if (!node.online) return { id, type: g.type, vmid: g.vmid, name, node: g.node, status: 'unknown' };
  const m = guestNow(c.world, g, c.nowSec);
  const out: Record<string, unknown> = {
    id,
    type: g.type,
    vmid: g.vmid,
    name,
    node: g.node,
    status: m.running ? 'running' : 'stopped',
    cpu: m.cpu,
    maxcpu: g.cpus,
    mem: m.mem,
    maxmem: m.maxmem,
    // Without the guest agent the hypervisor cannot see inside a VM's disk and reports 0.
    disk: g.type === 'qemu' ? 0 : m.disk,
    maxdisk: m.maxdisk,
    diskread: m.diskread,
    diskwrite: m.diskwrite,
    netin: m.netin,
    netout: m.netout,
    uptime: m.uptime,
    template: b01(g.template),
  };
  const tags = g.set.tags ?? g.tags;
  if (tags) out.tags = tags;
  if (g.set.lock) out.lock = g.set.lock;
  return out;
}

function clusterResources(c: Ctx): unknown[] {
  const type = str(c, 'type');
  const out: unknown[] = [];
  for (const n of c.world.nodes) {
    if (!type || type === 'node') out.push(nodeListEntry(c, n));
    if (!type || type === 'vm') for (const g of c.world.guestsOf(n.name)) out.push(guestResource(c, g, n));
    if (!type || type === 'storage') {
      for (const s of storagesOf(c.world, n)) {
        const u = n.online ? storageUsage(c, n, s) : undefined;
        const e = { id: `storage/${n.name}/${s.storage}`, type: 'storage', storage: s.storage, node: n.name };
        const extra = u ? { disk: u.used, maxdisk: u.total, status: 'available' } : { status: 'unknown' };
        out.push({ ...e, ...extra, plugintype: s.type, shared: 0, content: s.content });
      }
    }
    if (!type || type === 'sdn')
      out.push({
        id: `sdn/${n.name}/localnetwork`,
        type: 'sdn',
        sdn: 'localnetwork',
        node: n.name,
        status: n.online ? 'ok' : 'unknown',
      });
  }
  return out;
}

function login(c: Ctx): Record<string, unknown> {
  const r = c.auth.login(str(c, 'username') ?? '', str(c, 'password') ?? '', str(c, 'realm'));
  const out: Record<string, unknown> = { username: r.user, ticket: r.ticket, CSRFPreventionToken: r.csrf };
  if (c.world.cluster) out.clustername = c.world.cluster;
  out.cap = { vms: { 'VM.Audit': 1 }, storage: { 'Datastore.Audit': 1 }, nodes: { 'Sys.Audit': 1 } };
  return out;
}

function createToken(c: Ctx): Record<string, unknown> {
  const fullId = `${str(c, 'userid')}!${str(c, 'tokenid')}`;
  if (c.auth.tokens.some((t) => t.tokenId === fullId)) throw new SimError(500, `Token already exists.`);
  const h = hash32(c.world.seed ^ c.auth.tokens.length)
    .toString(16)
    .padStart(8, '0');
  const value = `${h}-5ea1-4b1d-9a1e-${h}${h.slice(0, 4)}`;
  c.auth.tokens.push({ tokenId: fullId, secret: value });
  return { 'full-tokenid': fullId, info: { privsep: b01(str(c, 'privsep') !== '0') }, value };
}

export const hvCoreRoutes: RouteDef[] = [
  ['GET', '/version', () => HV_VERSION],
  ['POST', '/access/ticket', login],
  ['POST', '/access/users/{userid}/token/{tokenid}', createToken],
  ['PUT', '/access/acl', () => null],
  ['GET', '/nodes', (c) => c.world.nodes.map((n) => nodeListEntry(c, n))],
  ['GET', '/nodes/{node}/status', nodeStatus],
  ['GET', '/cluster/status', clusterStatus],
  ['GET', '/cluster/resources', clusterResources],
  ['GET', '/cluster/replication', () => []],
  ['GET', '/cluster/options', () => ({ 'tag-style': { 'color-map': 'prod:ff0000:ffffff' }, keyboard: 'en-us' })],
  ['GET', '/cluster/ceph/status', cephMissing],
  ['GET', '/nodes/{node}/ceph/status', cephMissing],
  ['GET', '/nodes/{node}/ceph/pool', cephMissing],
];

/** The simulated cluster runs without Ceph; the real API answers this for a node without it. */
function cephMissing(): never {
  throw new SimError(500, 'binary not installed: /usr/bin/ceph-mon');
}
