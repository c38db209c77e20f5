import { bool, isObj, type Json, num, obj, objects, optStr, percent, str } from '../map.coerce.js';
import type { DiskSource, DiskUsage, GuestRecord, GuestSnapshot, MemorySource, MemoryUsage } from '../model.js';
import type { HvContext } from './hv.map.js';

export type GuestType = 'qemu' | 'lxc';

/** One item of GET /nodes/{node}/qemu or /lxc, with the counters the rates are computed from. */
export interface GuestListItem {
  vmid: number;
  name: string;
  status: string;
  cpu: number;
  cpus: number;
  mem: number;
  maxmem: number;
  disk: number;
  maxdisk: number;
  netin: number;
  netout: number;
  diskread: number;
  diskwrite: number;
  uptime: number;
  template: boolean;
  tags?: string;
  lock?: string;
}

/** Per-guest extras fetched when available: status/current, guest-agent fsinfo and /proc/meminfo. */
export interface GuestDetail {
  status?: unknown;
  fsinfo?: unknown;
  meminfo?: unknown;
  /** Why the guest agent gave nothing (not enabled, not running, error). */
  agentReason?: string;
  rates?: { networkIn: number; networkOut: number; diskRead: number; diskWrite: number };
}

export const guestId = (ctx: HvContext, node: string, vmid: number): string => `${ctx.instance}:${node}:${vmid}`;

export function mapGuestList(data: unknown): GuestListItem[] {
  const out: GuestListItem[] = [];
  if (!Array.isArray(data)) return out;
  for (const g of data) if (isObj(g) && num(g.vmid, -1) >= 0) out.push(mapGuestItem(g));
  return out;
}

function mapGuestItem(g: Json): GuestListItem {
  const item: GuestListItem = {
    vmid: num(g.vmid),
    name: str(g.name, `guest-${num(g.vmid)}`),
    status: str(g.status, 'unknown'),
    cpu: num(g.cpu),
    cpus: num(g.cpus, num(g.maxcpu)),
    mem: num(g.mem),
    maxmem: num(g.maxmem),
    disk: num(g.disk),
    maxdisk: num(g.maxdisk),
    netin: num(g.netin),
    netout: num(g.netout),
    diskread: num(g.diskread),
    diskwrite: num(g.diskwrite),
    uptime: num(g.uptime),
    template: bool(g.template),
  };
  const tags = optStr(g.tags);
  const lock = optStr(g.lock);
  if (tags) item.tags = tags;
  if (lock) item.lock = lock;
  return item;
}

const MEM_TOTAL = /^MemTotal:\s+(\d+)/m;
const MEM_AVAILABLE = /^MemAvailable:\s+(\d+)/m;
const kbToBytes = (m: RegExpExecArray | null): number | undefined => (m ? Number(m[1]) * 1024 : undefined);

/** GET .../agent/file-read?file=/proc/meminfo → `{content}`; values are kB. */
export function parseMeminfo(data: unknown): { total: number; available: number } | undefined {
  const content = str(obj(data).content);
  const total = kbToBytes(MEM_TOTAL.exec(content));
  const available = kbToBytes(MEM_AVAILABLE.exec(content));
  if (!total || available === undefined) return undefined;
  return { total, available: Math.min(available, total) };
}

const pseudoFs = new Set([
  'tmpfs',
  'devtmpfs',
  'overlay',
  'squashfs',
  'proc',
  'sysfs',
  'cgroup',
  'cgroup2',
  'autofs',
  'iso9660',
  'udf',
]);

/** GET .../agent/get-fsinfo → `{"result": [...]}`; real filesystems only, each device counted once. */
export function mapFsInfo(data: unknown): DiskUsage[] {
  const d = obj(data);
  const items = objects(isObj(d) && 'result' in d ? d.result : data);
  const seen = new Set<string>();
  const out: DiskUsage[] = [];
  for (const fs of items) {
    const type = str(fs.type);
    const mountpoint = str(fs.mountpoint);
    const total = num(fs['total-bytes'], -1);
    if (total <= 0 || pseudoFs.has(type) || mountpoint.startsWith('/snap/')) continue;
    const device = str(fs.name, mountpoint);
    if (seen.has(device)) continue;
    seen.add(device);
    const used = Math.min(total, num(fs['used-bytes']));
    out.push({ total, used, free: total - used, usage: percent(used, total), mountpoint, type, device });
  }
  return out;
}

/** Guest memory: the agent's MemAvailable first (cache is not "used"), then balloon free memory, then the list. */
export function resolveMemory(item: GuestListItem, detail: GuestDetail): { memory: MemoryUsage; source: MemorySource } {
  const info = detail.meminfo === undefined ? undefined : parseMeminfo(detail.meminfo);
  if (info) {
    const used = info.total - info.available;
    const total = item.maxmem || info.total;
    return { memory: { total, used, free: total - used, usage: percent(used, total) }, source: 'guest-agent' };
  }
  const status = obj(detail.status);
  const balloon = obj(status.ballooninfo);
  const bTotal = num(balloon.total_mem);
  const bFree = num(balloon.free_mem, num(status.freemem, -1));
  if (bTotal > 0 && bFree >= 0) {
    const used = Math.max(0, bTotal - bFree);
    const total = item.maxmem || bTotal;
    const memory = {
      total,
      used,
      free: Math.max(0, total - used),
      usage: percent(used, total),
      balloon: num(balloon.actual, bTotal),
    };
    return { memory, source: 'balloon' };
  }
  const total = item.maxmem;
  const used = Math.min(item.mem, total || item.mem);
  return { memory: { total, used, free: Math.max(0, total - used), usage: percent(used, total) }, source: 'status' };
}

interface DiskResolution {
  disk: DiskUsage;
  disks?: DiskUsage[];
  source: DiskSource;
  reason?: string;
}

/** VM disk usage exists only through the agent (the API reports 0); containers report their root fs. */
export function resolveDisk(type: GuestType, item: GuestListItem, detail: GuestDetail): DiskResolution {
  if (type === 'lxc') {
    const d = {
      total: item.maxdisk,
      used: item.disk,
      free: Math.max(0, item.maxdisk - item.disk),
      usage: percent(item.disk, item.maxdisk),
    };
    return { disk: d, source: 'status' };
  }
  const disks = detail.fsinfo === undefined ? [] : mapFsInfo(detail.fsinfo);
  if (disks.length > 0) {
    const total = disks.reduce((a, d) => a + d.total, 0);
    const used = disks.reduce((a, d) => a + d.used, 0);
    return { disk: { total, used, free: total - used, usage: percent(used, total) }, disks, source: 'guest-agent' };
  }
  const reason =
    item.status !== 'running'
      ? 'vm-stopped'
      : (detail.agentReason ?? (detail.fsinfo === undefined ? 'agent-not-enabled' : 'no-filesystems'));
  return { disk: { total: item.maxdisk, used: 0, free: item.maxdisk, usage: 0 }, source: 'none', reason };
}

export function buildGuest(
  ctx: HvContext,
  node: string,
  type: GuestType,
  item: GuestListItem,
  detail: GuestDetail = {},
): GuestRecord {
  const mem = resolveMemory(item, detail);
  const disk = resolveDisk(type, item, detail);
  const rates = detail.rates ?? { networkIn: 0, networkOut: 0, diskRead: 0, diskWrite: 0 };
  const g: GuestRecord = {
    id: guestId(ctx, node, item.vmid),
    vmid: item.vmid,
    name: item.name,
    node,
    instance: ctx.instance,
    status: str(obj(detail.status).qmpstatus) === 'paused' ? 'paused' : item.status,
    type,
    cpu: item.cpu,
    cpus: item.cpus,
    memory: mem.memory,
    mem: mem.memory.used,
    maxmem: mem.memory.total,
    memorySource: mem.source,
    disk: disk.disk,
    diskSource: disk.source,
    ...rates,
    uptime: item.uptime,
    template: item.template,
    lastSeen: ctx.at,
  };
  if (disk.disks) g.disks = disk.disks;
  if (disk.reason) g.diskStatusReason = disk.reason;
  if (item.tags) g.tags = item.tags;
  if (item.lock) g.lock = item.lock;
  if (type === 'qemu' && detail.status !== undefined) g.agent = bool(obj(detail.status).agent);
  return g;
}

/** GET .../{qemu|lxc}/{vmid}/snapshot; drops the pseudo-entry `current`. */
export function mapSnapshots(
  ctx: HvContext,
  node: string,
  type: GuestType,
  vmid: number,
  data: unknown,
): GuestSnapshot[] {
  return objects(data)
    .filter((s) => typeof s.name === 'string' && s.name !== 'current')
    .map((s) => {
      const snap: GuestSnapshot = {
        id: `${ctx.instance}-${node}-${vmid}-${str(s.name)}`,
        name: str(s.name),
        node,
        instance: ctx.instance,
        type,
        vmid,
        time: num(s.snaptime) * 1000,
        vmstate: bool(s.vmstate),
      };
      const description = optStr(s.description);
      const parent = optStr(s.parent);
      if (description) snap.description = description.trim();
      if (parent) snap.parent = parent;
      return snap;
    });
}

/** GET /cluster/resources: guests and nodes of the whole cluster in one call (pools, sdn are ignored). */
export function mapClusterResources(data: unknown): {
  guests: Array<{ type: GuestType; node: string; item: GuestListItem }>;
  nodes: string[];
} {
  const items = objects(data);
  const guests = items
    .filter((r) => r.type === 'qemu' || r.type === 'lxc')
    .flatMap((r) => mapGuestList([r]).map((item) => ({ type: r.type as GuestType, node: str(r.node), item })));
  const nodes = items.filter((r) => r.type === 'node').map((r) => str(r.node));
  return { guests, nodes };
}
