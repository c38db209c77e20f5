import { bool, num, obj, objects, optNum, optStr, percent, str } from '../map.coerce.js';
import type { BakBackup, BakInstanceRecord, BakJob, DatastoreRecord } from '../model.js';

export interface BakContext {
  instance: string;
  name: string;
  host: string;
  at: number;
}

/** GET /admin/datastore: names of the datastores (maintenance mode noted). */
export function mapDatastoreList(data: unknown): Array<{ store: string; maintenance?: string }> {
  return objects(data)
    .filter((d) => typeof d.store === 'string')
    .map((d) => {
      const maintenance = optStr(d.maintenance);
      return maintenance ? { store: str(d.store), maintenance } : { store: str(d.store) };
    });
}

/** GET /status/datastore-usage: `avail` is -1 and `error` set when a store cannot be read. */
export function mapDatastoreUsage(data: unknown): DatastoreRecord[] {
  return objects(data)
    .filter((d) => typeof d.store === 'string')
    .map((d) => {
      const total = Math.max(0, num(d.total));
      const used = Math.max(0, num(d.used));
      const avail = num(d.avail, -1);
      const error = optStr(d.error);
      const rec: DatastoreRecord = {
        name: str(d.store),
        total,
        used,
        free: Math.max(0, avail),
        usage: percent(used, total),
        status: error || avail < 0 ? 'error' : 'available',
      };
      if (error) rec.error = error;
      return rec;
    });
}

/** GET /admin/datastore/{store}/status, for a store missing from datastore-usage. */
export function mapDatastoreStatus(store: string, data: unknown): DatastoreRecord {
  const d = obj(data);
  const total = num(d.total);
  const used = num(d.used);
  return { name: store, total, used, free: num(d.avail), usage: percent(used, total), status: 'available' };
}

/** GET /admin/datastore/{store}/snapshots: `files` are objects in real answers (strings per the schema). */
export function mapBakSnapshots(ctx: BakContext, store: string, ns: string, data: unknown): BakBackup[] {
  return objects(data)
    .filter((s) => typeof s['backup-id'] === 'string')
    .map((s) => {
      const type = str(s['backup-type']);
      const id = str(s['backup-id']);
      const time = num(s['backup-time']);
      const b: BakBackup = {
        id: `${ctx.instance}-${store}-${ns}-${type}/${id}/${time}`,
        instance: ctx.instance,
        datastore: store,
        namespace: ns,
        backupType: type,
        vmid: id,
        backupTime: time * 1000,
        size: num(s.size),
        protected: bool(s.protected),
        verified: obj(s.verification).state === 'ok',
      };
      const comment = optStr(s.comment);
      const owner = optStr(s.owner);
      if (comment) b.comment = comment;
      if (owner) b.owner = owner;
      if (Array.isArray(s.files))
        b.files = s.files.map((f) => (typeof f === 'string' ? f : str(obj(f).filename))).filter(Boolean);
      return b;
    });
}

export interface BakGroup {
  backupType: string;
  backupId: string;
  lastBackup: number;
  backupCount: number;
  owner?: string;
}

/** GET /admin/datastore/{store}/groups */
export function mapBakGroups(data: unknown): BakGroup[] {
  return objects(data)
    .filter((g) => typeof g['backup-id'] === 'string')
    .map((g) => {
      const group: BakGroup = {
        backupType: str(g['backup-type']),
        backupId: str(g['backup-id']),
        lastBackup: num(g['last-backup']) * 1000,
        backupCount: num(g['backup-count']),
      };
      const owner = optStr(g.owner);
      if (owner) group.owner = owner;
      return group;
    });
}

/** GET /admin/{sync,verify,prune} and /admin/gc: job config plus last-run state. */
export function mapBakJobs(data: unknown, idKey = 'id'): BakJob[] {
  return objects(data).map((j) => {
    const state = optStr(j['last-run-state']);
    const failed = state !== undefined && state !== 'OK' && !state.startsWith('WARNINGS');
    const job: BakJob = {
      id: str(j[idKey], str(j.store)),
      store: str(j.store),
      status: state === undefined ? 'unknown' : failed ? 'error' : 'ok',
    };
    const last = optNum(j['last-run-endtime']);
    const next = optNum(j['next-run']);
    if (last !== undefined) job.lastRun = last * 1000;
    if (next !== undefined) job.nextRun = next * 1000;
    if (failed) job.error = state;
    return job;
  });
}

export interface BakTask {
  upid: string;
  type: string;
  workerId: string;
  status: string;
  startTime: number;
  endTime?: number;
}

/** GET /nodes/localhost/tasks */
export function mapBakTasks(data: unknown): BakTask[] {
  return objects(data)
    .filter((t) => typeof t.upid === 'string')
    .map((t) => {
      const task: BakTask = {
        upid: str(t.upid),
        type: str(t.worker_type),
        workerId: str(t.worker_id),
        status: str(t.status, 'running'),
        startTime: num(t.starttime) * 1000,
      };
      const end = optNum(t.endtime);
      if (end !== undefined) task.endTime = end * 1000;
      return task;
    });
}

export interface BakJobs {
  backupJobs: BakJob[];
  syncJobs: BakJob[];
  verifyJobs: BakJob[];
  pruneJobs: BakJob[];
  garbageJobs: BakJob[];
}

/** The instance record from /version, /nodes/localhost/status, datastores and jobs. */
export function mapBakInstance(
  ctx: BakContext,
  version: unknown,
  status: unknown,
  datastores: DatastoreRecord[],
  jobs: BakJobs,
): BakInstanceRecord {
  const v = obj(version);
  const s = obj(status);
  const memory = obj(s.memory);
  const total = num(memory.total);
  const used = num(memory.used);
  return {
    id: ctx.instance,
    name: ctx.name,
    host: ctx.host,
    status: 'online',
    version: [str(v.version), optStr(v.release)].filter(Boolean).join('.'),
    cpu: num(s.cpu),
    memory: percent(used, total),
    memoryUsed: used,
    memoryTotal: total,
    uptime: num(s.uptime),
    datastores,
    ...jobs,
    connectionHealth: 'healthy',
    lastSeen: ctx.at,
  };
}
