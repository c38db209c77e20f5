import { mapLimit } from '../../platform/jobs/index.js';
import type { ApiClient } from '../api.client.js';
import type { BakPollResult, Collector, CollectorDeps, ConnectionTest, InstanceConfig } from '../collector.js';
import { soft } from '../collector.soft.js';
import { objects, str } from '../map.coerce.js';
import type { BakBackup, BakJob, DatastoreRecord } from '../model.js';
import { createBakClient } from './bak.client.js';
import {
  type BakContext,
  mapBakInstance,
  mapBakJobs,
  mapBakSnapshots,
  mapBakTasks,
  mapDatastoreList,
  mapDatastoreStatus,
  mapDatastoreUsage,
} from './bak.map.js';

const TASK_LOOKBACK_S = 35 * 24 * 3600;

/** Polls one backup server: status, datastores and usage, jobs; snapshots every Nth cycle. */
export function createBakCollector(cfg: InstanceConfig, deps: CollectorDeps): Collector {
  const client = createBakClient(cfg, deps);
  const api = client.api;
  const slowEvery = cfg.collect?.slowEvery ?? 10;
  const concurrency = cfg.collect?.concurrency ?? 4;
  let cycle = 0;

  const poll = async (signal: AbortSignal): Promise<BakPollResult> => {
    const at = deps.clock.now();
    const warnings: string[] = [];
    const ctx: BakContext = { instance: cfg.id, name: cfg.name, host: cfg.host, at };
    const [version, status, list] = await Promise.all([
      api.get('/version', undefined, signal),
      api.get('/nodes/localhost/status', undefined, signal),
      api.get('/admin/datastore', undefined, signal),
    ]);
    const stores = mapDatastoreList(list);
    const datastores = await datastoreUsage(api, stores, warnings, signal);
    const jobs = await readJobs(api, at, warnings, signal);
    const result: BakPollResult = {
      kind: 'bak',
      at,
      instance: mapBakInstance(ctx, version, status, datastores, jobs),
      warnings,
    };
    if (datastores.some((d) => d.status === 'error')) result.instance.status = 'warning';
    if (slowEvery > 0 && cycle++ % slowEvery === 0) {
      const names = stores.map((s) => s.store);
      const per = await mapLimit(names, concurrency, (s) => storeBackups(api, ctx, s, warnings, signal), signal);
      result.slow = { backups: per.flat() };
    }
    return result;
  };

  const test = async (signal: AbortSignal): Promise<ConnectionTest> => {
    const v = await api.get('/version', undefined, signal);
    return { kind: 'bak', version: str((v as { version?: unknown })?.version) };
  };

  return { kind: 'bak', poll, test, endpoints: () => client.sender.health(), close: client.close };
}

/** datastore-usage covers all stores in one call; fall back to per-store status for any it misses. */
async function datastoreUsage(
  api: ApiClient,
  stores: Array<{ store: string }>,
  warnings: string[],
  signal: AbortSignal,
): Promise<DatastoreRecord[]> {
  const usage = mapDatastoreUsage(await soft(api.get('/status/datastore-usage', undefined, signal), warnings, 'usage'));
  const known = new Set(usage.map((u) => u.name));
  const missing = stores.filter((s) => !known.has(s.store));
  const extra = await Promise.all(
    missing.map(async (s) => {
      const path = `/admin/datastore/${encodeURIComponent(s.store)}/status`;
      const data = await soft(api.get(path, undefined, signal), warnings, `datastore ${s.store}`);
      return data === undefined
        ? { name: s.store, total: 0, used: 0, free: 0, usage: 0, status: 'unknown' }
        : mapDatastoreStatus(s.store, data);
    }),
  );
  const wanted = new Set(stores.map((s) => s.store));
  return [...usage.filter((u) => wanted.has(u.name)), ...extra];
}

async function readJobs(api: ApiClient, at: number, warnings: string[], signal: AbortSignal) {
  const get = (path: string, query?: Record<string, number | string>) =>
    soft(api.get(path, query, signal), warnings, path);
  const [sync, verify, prune, gc, tasks] = await Promise.all([
    get('/admin/sync'),
    get('/admin/verify'),
    get('/admin/prune'),
    get('/admin/gc'),
    get('/nodes/localhost/tasks', { typefilter: 'backup', since: Math.floor(at / 1000) - TASK_LOOKBACK_S, limit: 500 }),
  ]);
  return {
    backupJobs: latestBackupTasks(tasks),
    syncJobs: mapBakJobs(sync),
    verifyJobs: mapBakJobs(verify),
    pruneJobs: mapBakJobs(prune),
    garbageJobs: mapBakJobs(gc, 'store'),
  };
}

/** The newest backup task per backup group, as a job-like record. */
function latestBackupTasks(data: unknown): BakJob[] {
  const latest = new Map<string, BakJob>();
  for (const t of mapBakTasks(data).sort((a, b) => b.startTime - a.startTime)) {
    if (latest.has(t.workerId)) continue;
    const failed = t.status !== 'OK' && t.status !== 'running' && !t.status.startsWith('WARNINGS');
    const job: BakJob = {
      id: t.workerId,
      store: t.workerId.split(':')[0] ?? '',
      status: failed ? 'error' : t.status === 'running' ? 'running' : 'ok',
    };
    if (t.endTime !== undefined) job.lastRun = t.endTime;
    if (failed) job.error = t.status;
    latest.set(t.workerId, job);
  }
  return [...latest.values()];
}

async function storeBackups(
  api: ApiClient,
  ctx: BakContext,
  store: string,
  warnings: string[],
  signal: AbortSignal,
): Promise<BakBackup[]> {
  const base = `/admin/datastore/${encodeURIComponent(store)}`;
  const nsData = await soft(api.get(`${base}/namespace`, undefined, signal), warnings, `namespaces ${store}`);
  const namespaces = nsData === undefined ? [''] : objects(nsData).map((n) => str(n.ns));
  if (!namespaces.includes('')) namespaces.unshift('');
  const per = await Promise.all(
    namespaces.slice(0, 32).map(async (ns) => {
      const data = await soft(
        api.get(`${base}/snapshots`, ns ? { ns } : undefined, signal),
        warnings,
        `snapshots ${store}`,
      );
      return mapBakSnapshots(ctx, store, ns, data);
    }),
  );
  return per.flat();
}
