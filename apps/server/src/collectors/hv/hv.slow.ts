import { mapLimit } from '../../platform/jobs/index.js';
import type { ApiClient } from '../api.client.js';
import type { CollectOptions, HvPollResult } from '../collector.js';
import { soft } from '../collector.soft.js';
import type { StorageRecord } from '../model.js';
import { type GuestListItem, type GuestType, mapSnapshots } from './hv.guest.map.js';
import { type HvContext, type HvNodeListItem, mapBackupTasks, mapDisks, mapStorageBackups } from './hv.map.js';

export interface GuestRef {
  node: string;
  type: GuestType;
  item: GuestListItem;
}

interface SlowInput {
  refs: GuestRef[];
  storage: StorageRecord[];
  nodes: HvNodeListItem[];
  concurrency: number;
  warnings: string[];
  signal: AbortSignal;
  want: CollectOptions;
}

/** Backups, snapshots, backup tasks and disks: they change slowly, so they are polled every Nth cycle. */
export async function collectSlow(
  api: ApiClient,
  ctx: HvContext,
  input: SlowInput,
): Promise<NonNullable<HvPollResult['slow']>> {
  const { warnings, signal, concurrency } = input;
  const online = input.nodes.filter((n) => n.status === 'online').map((n) => n.node);
  const firstOnline = online[0];
  const wantBackups = input.want.backups !== false;
  const backupStores = wantBackups
    ? input.storage.filter((s) => s.active && s.content.split(',').includes('backup'))
    : [];
  const backups = await mapLimit(
    backupStores,
    concurrency,
    async (s) => {
      const node = s.node === 'cluster' ? firstOnline : s.node;
      if (!node) return [];
      const path = `/nodes/${encodeURIComponent(node)}/storage/${encodeURIComponent(s.storage)}/content`;
      const data = await soft(api.get(path, { content: 'backup' }, signal), warnings, `backups ${s.storage}`);
      return mapStorageBackups(ctx, node, s.storage, data, s.type === 'pbs');
    },
    signal,
  );
  const perNode = await mapLimit(online, concurrency, (node) => nodeSlow(api, ctx, node, input, wantBackups), signal);
  const guests = wantBackups ? input.refs.filter((r) => !r.item.template) : [];
  const snapshots = await mapLimit(
    guests,
    concurrency * 2,
    async (r) => {
      const path = `/nodes/${encodeURIComponent(r.node)}/${r.type}/${r.item.vmid}/snapshot`;
      const data = await soft(api.get(path, undefined, signal), warnings, `snapshots ${r.item.vmid}`);
      return mapSnapshots(ctx, r.node, r.type, r.item.vmid, data);
    },
    signal,
  );
  return {
    backups: backups.flat(),
    backupTasks: perNode.flatMap((n) => n.tasks),
    snapshots: snapshots.flat(),
    disks: perNode.flatMap((n) => n.disks),
  };
}

async function nodeSlow(api: ApiClient, ctx: HvContext, node: string, input: SlowInput, wantBackups: boolean) {
  const { warnings, signal } = input;
  const base = `/nodes/${encodeURIComponent(node)}`;
  const [tasks, disks] = await Promise.all([
    wantBackups
      ? soft(api.get(`${base}/tasks`, { typefilter: 'vzdump', limit: 50 }, signal), warnings, `tasks ${node}`)
      : [],
    input.want.physicalDisks === false
      ? []
      : soft(api.get(`${base}/disks/list`, undefined, signal), warnings, `disks ${node}`),
  ]);
  return { tasks: mapBackupTasks(ctx, node, tasks), disks: mapDisks(ctx, node, disks) };
}
