import { createLimiter, type Limiter, mapLimit } from '../../platform/jobs/index.js';
import type { ApiClient } from '../api.client.js';
import { isApiError } from '../api.errors.js';
import type {
  CollectOptions,
  Collector,
  CollectorDeps,
  ConnectionTest,
  HvPollResult,
  InstanceConfig,
} from '../collector.js';
import { isFatal, soft } from '../collector.soft.js';
import { obj, str } from '../map.coerce.js';
import type { GuestRecord, NodeRecord, StorageRecord } from '../model.js';
import { RateTracker } from '../rate.js';
import { createHvClient } from './hv.client.js';
import { buildGuest, type GuestDetail, type GuestListItem, guestId, mapGuestList } from './hv.guest.map.js';
import {
  type HvContext,
  type HvNodeListItem,
  mapClusterStatus,
  mapNodeList,
  mapNodeStatus,
  mapStorage,
} from './hv.map.js';
import { collectSlow, type GuestRef } from './hv.slow.js';

interface NodeFetch {
  record: NodeRecord;
  guests: GuestRef[];
  storage: StorageRecord[];
}

/** Per-guest detail work, started as soon as a node's guest lists arrive so the pipeline stays full. */
interface GuestWork {
  limiter: Limiter;
  cfg: InstanceConfig;
  rates: RateTracker;
  pending: Array<Promise<GuestRecord>>;
}

/** Polls one hv instance (a standalone node or a cluster through any of its members). */
export function createHvCollector(cfg: InstanceConfig, deps: CollectorDeps): Collector {
  const client = createHvClient(cfg, deps);
  const api = client.api;
  const rates = new RateTracker();
  const concurrency = cfg.collect?.concurrency ?? 8;
  const slowEvery = cfg.collect?.slowEvery ?? 10;
  let cycle = 0;

  const poll = async (signal: AbortSignal): Promise<HvPollResult> => {
    const warnings: string[] = [];
    const at = deps.clock.now();
    await client.sender.reprobe(signal);
    const clusterData = await soft(api.get('/cluster/status', undefined, signal), warnings, 'cluster status');
    const cluster = clusterData === undefined ? undefined : mapClusterStatus(clusterData);
    const ctx: HvContext = {
      instance: cfg.id,
      at,
      ...(cluster?.clusterName ? { clusterName: cluster.clusterName } : {}),
    };
    const list = mapNodeList(await api.get('/nodes', undefined, signal));
    const work: GuestWork = { limiter: createLimiter(concurrency * 4), cfg, rates, pending: [] };
    const fetched = await mapLimit(
      list,
      concurrency,
      (n) => fetchNodeAndGuests(api, ctx, n, work, warnings, signal),
      signal,
    );
    const guests = await Promise.all(work.pending);
    rates.sweep();
    const result: HvPollResult = {
      kind: 'hv',
      at,
      cluster,
      nodes: fetched.map((f) => f.record),
      vms: guests.filter((g) => g.type === 'qemu'),
      containers: guests.filter((g) => g.type === 'lxc'),
      storage: dedupeStorage(fetched.flatMap((f) => f.storage)),
      warnings,
    };
    if (slowEvery > 0 && cycle++ % slowEvery === 0) {
      result.slow = await collectSlow(api, ctx, {
        refs: fetched.flatMap((f) => f.guests),
        storage: result.storage,
        nodes: list,
        concurrency,
        warnings,
        signal,
        want: cfg.collect ?? {},
      });
    }
    return result;
  };

  const test = (signal: AbortSignal) => testHv(api, signal);
  return { kind: 'hv', poll, test, endpoints: () => client.sender.health(), close: client.close };
}

/** Version plus cluster name and members from /cluster/status (for add/test and refresh-cluster). */
async function testHv(api: ApiClient, signal: AbortSignal): Promise<ConnectionTest> {
  const version = obj(await api.get('/version', undefined, signal));
  const c = mapClusterStatus(await soft(api.get('/cluster/status', undefined, signal), [], 'cluster'));
  const res: ConnectionTest = { kind: 'hv', version: str(version.version) };
  if (c.clusterName) {
    res.cluster = {
      name: c.clusterName,
      members: c.members.map((m) => ({ name: m.name, online: m.online, ...(m.ip ? { ip: m.ip } : {}) })),
    };
  }
  return res;
}

async function fetchNodeAndGuests(
  api: ApiClient,
  ctx: HvContext,
  item: HvNodeListItem,
  work: GuestWork,
  warnings: string[],
  signal: AbortSignal,
): Promise<NodeFetch> {
  const f = await fetchNode(api, ctx, item, warnings, signal, work.cfg.collect);
  for (const ref of f.guests) {
    work.pending.push(work.limiter.run(() => detailGuest(api, ctx, ref, work.cfg, work.rates, warnings, signal)));
  }
  return f;
}

async function fetchNode(
  api: ApiClient,
  ctx: HvContext,
  item: HvNodeListItem,
  warnings: string[],
  signal: AbortSignal,
  want: CollectOptions = {},
): Promise<NodeFetch> {
  if (item.status !== 'online') return { record: mapNodeStatus(ctx, item, undefined), guests: [], storage: [] };
  const base = `/nodes/${encodeURIComponent(item.node)}`;
  const label = `node ${item.node}`;
  const get = (on: boolean | undefined, path: string) =>
    on === false ? Promise.resolve([]) : soft(api.get(path, undefined, signal), warnings, label);
  const [status, qemu, lxc, storage] = await Promise.all([
    soft(api.get(`${base}/status`, undefined, signal), warnings, label),
    get(want.vms, `${base}/qemu`),
    get(want.containers, `${base}/lxc`),
    get(want.storage, `${base}/storage`),
  ]);
  const record = mapNodeStatus(ctx, item, status);
  if (status === undefined || qemu === undefined || lxc === undefined) {
    record.status = 'warning';
    record.connectionHealth = 'degraded';
  }
  const guests: GuestRef[] = [];
  for (const g of mapGuestList(qemu)) guests.push({ node: item.node, type: 'qemu', item: g });
  for (const g of mapGuestList(lxc)) guests.push({ node: item.node, type: 'lxc', item: g });
  return { record, guests, storage: storage === undefined ? [] : mapStorage(ctx, item.node, storage) };
}

async function detailGuest(
  api: ApiClient,
  ctx: HvContext,
  ref: GuestRef,
  cfg: InstanceConfig,
  rates: RateTracker,
  warnings: string[],
  signal: AbortSignal,
): Promise<GuestRecord> {
  const { item, node, type } = ref;
  const id = guestId(ctx, node, item.vmid);
  const [netIn, netOut, dRead, dWrite] = rates.rates(id, ctx.at, [
    item.netin,
    item.netout,
    item.diskread,
    item.diskwrite,
  ]);
  const detail: GuestDetail = {
    rates: { networkIn: netIn ?? 0, networkOut: netOut ?? 0, diskRead: dRead ?? 0, diskWrite: dWrite ?? 0 },
  };
  if (type === 'qemu' && item.status === 'running' && !item.template) {
    Object.assign(detail, await agentDetail(api, node, item, cfg.collect?.guestAgent !== false, warnings, signal));
  }
  return buildGuest(ctx, node, type, item, detail);
}

async function agentDetail(
  api: ApiClient,
  node: string,
  item: GuestListItem,
  useAgent: boolean,
  warnings: string[],
  signal: AbortSignal,
): Promise<GuestDetail> {
  const base = `/nodes/${encodeURIComponent(node)}/qemu/${item.vmid}`;
  const status = await soft(api.get(`${base}/status/current`, undefined, signal), warnings, `vm ${item.vmid}`);
  if (!useAgent || status === undefined) return status === undefined ? {} : { status };
  if (!obj(status).agent || Number(obj(status).agent) === 0) return { status, agentReason: 'agent-not-enabled' };
  const [fs, mem] = await Promise.allSettled([
    api.get(`${base}/agent/get-fsinfo`, undefined, signal),
    api.get(`${base}/agent/file-read`, { file: '/proc/meminfo' }, signal),
  ]);
  for (const r of [fs, mem]) if (r.status === 'rejected' && isFatal(r.reason)) throw r.reason;
  const detail: GuestDetail = { status };
  if (fs.status === 'fulfilled') detail.fsinfo = fs.value;
  if (mem.status === 'fulfilled') detail.meminfo = mem.value;
  const failed = fs.status === 'rejected' ? fs.reason : mem.status === 'rejected' ? mem.reason : undefined;
  if (failed) detail.agentReason = agentReason(failed);
  return detail;
}

/** 500 "QEMU guest agent is not running" is the common answer: expected, not a warning. */
function agentReason(err: unknown): string {
  if (!isApiError(err)) return 'agent-error';
  if (err.status === 403) return 'agent-permission-denied';
  return err.status === 500 ? 'agent-not-running' : 'agent-error';
}

/** Shared storage appears under every node; keep one record per id. */
function dedupeStorage(list: StorageRecord[]): StorageRecord[] {
  const byId = new Map<string, StorageRecord>();
  for (const s of list) if (!byId.has(s.id)) byId.set(s.id, s);
  return [...byId.values()];
}
