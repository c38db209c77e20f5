import { bool, type Json, num, obj, objects, optNum, optStr, percent, secToMs, str } from '../map.coerce.js';
import type { BackupTask, NodeRecord, PhysicalDisk, StorageBackup, StorageRecord } from '../model.js';

/** What every hv mapper needs to name records: the configured instance, the poll time, the cluster. */
export interface HvContext {
  instance: string;
  at: number;
  clusterName?: string;
}

export interface HvNodeListItem {
  node: string;
  status: string;
  cpu: number;
  maxcpu: number;
  mem: number;
  maxmem: number;
  uptime: number;
}

export interface ClusterInfo {
  clusterName: string | undefined;
  quorate: boolean;
  members: Array<{ name: string; ip: string | undefined; online: boolean; local: boolean; nodeid: number }>;
}

export const nodeId = (ctx: HvContext, node: string): string => `${ctx.clusterName ?? ctx.instance}-${node}`;

/** GET /nodes */
export function mapNodeList(data: unknown): HvNodeListItem[] {
  return objects(data)
    .filter((n) => typeof n.node === 'string')
    .map((n) => ({
      node: str(n.node),
      status: str(n.status, 'unknown'),
      cpu: num(n.cpu),
      maxcpu: num(n.maxcpu),
      mem: num(n.mem),
      maxmem: num(n.maxmem),
      uptime: num(n.uptime),
    }));
}

/** GET /cluster/status: one `cluster` entry (absent on a standalone node) plus one entry per `node`. */
export function mapClusterStatus(data: unknown): ClusterInfo {
  const items = objects(data);
  const cluster = items.find((i) => i.type === 'cluster');
  return {
    clusterName: cluster ? optStr(cluster.name) : undefined,
    quorate: cluster ? bool(cluster.quorate) : true,
    members: items
      .filter((i) => i.type === 'node')
      .map((i) => ({
        name: str(i.name),
        ip: optStr(i.ip),
        online: bool(i.online),
        local: bool(i.local),
        nodeid: num(i.nodeid),
      })),
  };
}

/** GET /nodes/{node}/status merged with the /nodes list item (status may be absent for offline nodes). */
export function mapNodeStatus(ctx: HvContext, item: HvNodeListItem, status: unknown): NodeRecord {
  const s = obj(status);
  const memory = obj(s.memory);
  const rootfs = obj(s.rootfs);
  const swap = obj(s.swap);
  const cpuinfo = obj(s.cpuinfo);
  const total = num(memory.total, item.maxmem);
  // `available` excludes reclaimable cache; older servers send only used/free.
  const used = memory.available !== undefined ? total - num(memory.available) : num(memory.used, item.mem);
  const diskTotal = num(rootfs.total);
  const diskUsed = num(rootfs.used);
  const online = item.status === 'online';
  const record: NodeRecord = {
    id: nodeId(ctx, item.node),
    node: item.node,
    name: item.node,
    displayName: item.node,
    instance: ctx.instance,
    status: online ? 'online' : item.status === 'offline' ? 'offline' : 'unknown',
    type: 'node',
    cpu: num(s.cpu, item.cpu),
    memory: {
      total,
      used,
      free: Math.max(0, total - used),
      usage: percent(used, total),
      swapUsed: num(swap.used),
      swapTotal: num(swap.total),
    },
    mem: used,
    maxmem: total,
    disk: {
      total: diskTotal,
      used: diskUsed,
      free: num(rootfs.avail, diskTotal - diskUsed),
      usage: percent(diskUsed, diskTotal),
    },
    maxdisk: diskTotal,
    uptime: num(s.uptime, item.uptime),
    loadAverage: Array.isArray(s.loadavg) ? s.loadavg.map((l) => num(l)) : [],
    kernelVersion: str(s.kversion),
    pveVersion: str(s.pveversion),
    cpuInfo: {
      model: str(cpuinfo.model),
      cores: num(cpuinfo.cores),
      sockets: num(cpuinfo.sockets),
      mhz: str(cpuinfo.mhz),
    },
    lastSeen: ctx.at,
    connectionHealth: 'healthy',
    isClusterMember: ctx.clusterName !== undefined,
  };
  if (ctx.clusterName) record.clusterName = ctx.clusterName;
  return record;
}

/** GET /nodes/{node}/storage; shared storage gets one cluster-wide id so it is counted once. */
export function mapStorage(ctx: HvContext, node: string, data: unknown): StorageRecord[] {
  return objects(data)
    .filter((s) => typeof s.storage === 'string')
    .map((s) => {
      const shared = bool(s.shared);
      const total = num(s.total);
      const used = num(s.used);
      const avail = num(s.avail, Math.max(0, total - used));
      const active = s.active === undefined ? total > 0 : bool(s.active);
      const enabled = s.enabled === undefined ? true : bool(s.enabled);
      return {
        id: shared ? `${ctx.instance}-cluster-${str(s.storage)}` : `${ctx.instance}-${node}-${str(s.storage)}`,
        storage: str(s.storage),
        name: str(s.storage),
        node: shared ? 'cluster' : node,
        instance: ctx.instance,
        type: str(s.type),
        status: !enabled ? 'disabled' : active ? 'available' : 'unavailable',
        total,
        used,
        avail,
        free: avail,
        usage: percent(used, total),
        content: str(s.content),
        shared,
        enabled,
        active,
      };
    });
}

const backupVolid = /\/vzdump-(qemu|lxc)-(\d+)-/;

/** GET /nodes/{node}/storage/{storage}/content?content=backup */
export function mapStorageBackups(
  ctx: HvContext,
  node: string,
  storage: string,
  data: unknown,
  isPBS = false,
): StorageBackup[] {
  return objects(data)
    .filter((c) => typeof c.volid === 'string' && (c.content === undefined || c.content === 'backup'))
    .map((c) => {
      const volid = str(c.volid);
      const m = backupVolid.exec(volid);
      const subtype = str(c.subtype) || m?.[1] || '';
      const verification = obj(c.verification);
      const backup: StorageBackup = {
        id: `${ctx.instance}-${volid}`,
        storage,
        node,
        instance: ctx.instance,
        type: subtype === 'qemu' || subtype === 'lxc' ? subtype : 'unknown',
        vmid: num(c.vmid, num(m?.[2])),
        time: secToMs(c.ctime),
        ctime: num(c.ctime),
        size: num(c.size),
        format: str(c.format),
        protected: bool(c.protected),
        volid,
        isPBS,
        verified: verification.state === 'ok',
      };
      const notes = optStr(c.notes);
      if (notes) backup.notes = notes;
      return backup;
    });
}

/** GET /nodes/{node}/tasks?typefilter=vzdump: `status` is absent while running, `OK`/`WARNINGS: n` or the error. */
export function mapBackupTasks(ctx: HvContext, node: string, data: unknown): BackupTask[] {
  return objects(data)
    .filter((t) => typeof t.upid === 'string')
    .map((t: Json) => {
      const status = optStr(t.status);
      const ok = status === 'OK' || status?.startsWith('WARNINGS') === true;
      const task: BackupTask = {
        id: `${ctx.instance}-${str(t.upid)}`,
        node: str(t.node, node),
        instance: ctx.instance,
        type: str(t.type),
        vmid: num(t.id),
        status: status === undefined ? 'running' : ok ? status : 'error',
        startTime: secToMs(t.starttime),
      };
      const end = optNum(t.endtime);
      if (end !== undefined) task.endTime = end * 1000;
      if (status !== undefined && !ok) task.error = status;
      return task;
    });
}

/** GET /nodes/{node}/disks/list; `wearout` is a number or `N/A`. */
export function mapDisks(ctx: HvContext, node: string, data: unknown): PhysicalDisk[] {
  return objects(data)
    .filter((d) => typeof d.devpath === 'string')
    .map((d) => ({
      id: `${ctx.instance}-${node}-${str(d.devpath).replace(/^\/dev\//, '')}`,
      node,
      instance: ctx.instance,
      devPath: str(d.devpath),
      model: str(d.model),
      serial: str(d.serial),
      type: str(d.type, 'unknown'),
      size: num(d.size),
      health: str(d.health, 'UNKNOWN'),
      wearout: optNum(d.wearout) ?? null,
      used: str(d.used),
    }));
}
