import { z } from 'zod';
import { defineRoute } from '../route.js';

export const chartRanges = ['5m', '15m', '30m', '1h', '4h', '12h', '24h', '7d'] as const;
export type ChartRange = (typeof chartRanges)[number];

export const chartQuery = z.object({
  range: z
    .enum(chartRanges, { error: `range accepts ${chartRanges.join(', ')}` })
    .default('1h')
    .describe(chartRanges.join(', ')),
});

export const chartPoint = z
  .object({ timestamp: z.number().int().describe('Unix milliseconds'), value: z.number() })
  .meta({ id: 'ChartPoint' });
const points = z.array(chartPoint);

const seriesSet = z.object({ cpu: points, memory: points, disk: points });

export const chartsResponse = z
  .object({
    range: z.enum(chartRanges),
    start: z.number().int(),
    end: z.number().int(),
    nodes: z.record(z.string(), seriesSet).describe('By live-state node id; values in percent'),
    guests: z.record(z.string(), seriesSet).describe('By live-state guest id (VMs and LXC)'),
    storage: z.record(z.string(), z.object({ disk: points })).describe('By live-state storage id: usage percent'),
  })
  .meta({ id: 'Charts' });

export const storageChartsResponse = z
  .object({
    range: z.enum(chartRanges),
    start: z.number().int(),
    end: z.number().int(),
    storage: z.record(
      z.string(),
      z.object({
        name: z.string(),
        node: z.string(),
        instance: z.string(),
        total: z.number(),
        used: z.number(),
        avail: z.number(),
        usage: z.number(),
        points: points.describe('usage percent over the range'),
      }),
    ),
  })
  .meta({ id: 'StorageCharts' });

/** Live-state records are passed through as collected; the listed fields are always present. */
const storageRecord = z.object({
  id: z.string(),
  storage: z.string(),
  node: z.string(),
  instance: z.string(),
  type: z.string(),
  total: z.number(),
  used: z.number(),
  avail: z.number(),
  usage: z.number(),
});
const storageBackup = z.object({ id: z.string(), storage: z.string(), vmid: z.number(), time: z.number() });
const backupTask = z.object({ id: z.string(), vmid: z.number(), status: z.string(), startTime: z.number() });
const guestSnapshot = z.object({ id: z.string(), name: z.string(), vmid: z.number(), time: z.number() });
const bakBackup = z.object({ id: z.string(), datastore: z.string(), vmid: z.string(), backupTime: z.number() });
const mailBackup = z.object({ id: z.string(), filename: z.string(), backupTime: z.number() });

export const storageListResponse = z
  .object({
    data: z.array(storageRecord),
    nodes: z.record(
      z.string(),
      z.object({ pools: z.number().int(), total: z.number(), used: z.number(), avail: z.number() }),
    ),
    meta: z.object({ total: z.number().int() }),
  })
  .meta({ id: 'StorageList' });

const hvBackups = z.object({
  backupTasks: z.array(backupTask),
  storageBackups: z.array(storageBackup),
  guestSnapshots: z.array(guestSnapshot),
});
const hvMeta = z.object({
  totalBackupTasks: z.number().int(),
  totalStorageBackups: z.number().int(),
  totalGuestSnapshots: z.number().int(),
});

export const hvBackupsResponse = z.object({ data: hvBackups, meta: hvMeta }).meta({ id: 'HvBackups' });
export const bakBackupsResponse = z
  .object({ data: z.object({ backups: z.array(bakBackup) }), meta: z.object({ totalBackups: z.number().int() }) })
  .meta({ id: 'BakBackups' });
export const backupsResponse = z
  .object({
    data: z.object({ hv: hvBackups, bak: z.array(bakBackup), mail: z.array(mailBackup) }),
    meta: hvMeta.extend({ totalBakBackups: z.number().int(), totalMailBackups: z.number().int() }),
  })
  .meta({ id: 'Backups' });

export const unifiedBackup = z
  .object({
    id: z.string(),
    source: z.enum(['hv', 'bak']),
    instance: z.string(),
    node: z.string().optional(),
    location: z.string().describe('hv storage or bak datastore'),
    guestType: z.string().describe('qemu, lxc, vm, ct, host...'),
    vmid: z.string(),
    time: z.number().int().describe('Unix milliseconds'),
    size: z.number(),
    protected: z.boolean(),
    verified: z.boolean(),
    notes: z.string().optional(),
  })
  .meta({ id: 'UnifiedBackup' });

export const unifiedBackupsResponse = z
  .object({
    data: z.array(unifiedBackup).describe('Newest first'),
    meta: z.object({ total: z.number().int(), bySource: z.record(z.string(), z.number().int()) }),
  })
  .meta({ id: 'UnifiedBackups' });

export const snapshotsResponse = z
  .object({ data: z.array(guestSnapshot).describe('Newest first'), meta: z.object({ total: z.number().int() }) })
  .meta({ id: 'Snapshots' });

const read = { access: 'auth', scopes: ['monitoring:read'] } as const;

export const chartRoutes = {
  getCharts: defineRoute({
    method: 'GET',
    path: '/api/charts',
    summary: 'CPU, memory and storage series of every node and guest over a range',
    tag: 'Charts',
    ...read,
    query: chartQuery,
    response: chartsResponse,
  }),
  getStorageCharts: defineRoute({
    method: 'GET',
    path: '/api/storage-charts',
    summary: 'Storage usage series with current capacity per pool',
    tag: 'Charts',
    ...read,
    query: chartQuery,
    response: storageChartsResponse,
  }),
  listStorage: defineRoute({
    method: 'GET',
    path: '/api/storage/',
    summary: 'Storage usage per node and pool',
    tag: 'Storage',
    ...read,
    response: storageListResponse,
  }),
  listBackups: defineRoute({
    method: 'GET',
    path: '/api/backups',
    summary: 'Every backup: hypervisor tasks, archives and snapshots, backup-server and mail-gateway backups',
    tag: 'Backups',
    ...read,
    response: backupsResponse,
  }),
  listHvBackups: defineRoute({
    method: 'GET',
    path: '/api/backups/hv',
    summary: 'Hypervisor backup tasks, storage backups and guest snapshots',
    tag: 'Backups',
    ...read,
    response: hvBackupsResponse,
  }),
  listBakBackups: defineRoute({
    method: 'GET',
    path: '/api/backups/bak',
    summary: 'Backup-server snapshots',
    tag: 'Backups',
    ...read,
    response: bakBackupsResponse,
  }),
  listUnifiedBackups: defineRoute({
    method: 'GET',
    path: '/api/backups/unified',
    summary: 'Hypervisor and backup-server backups in one list, newest first',
    tag: 'Backups',
    ...read,
    response: unifiedBackupsResponse,
  }),
  listSnapshots: defineRoute({
    method: 'GET',
    path: '/api/snapshots',
    summary: 'Guest snapshots, newest first',
    tag: 'Backups',
    ...read,
    response: snapshotsResponse,
  }),
} as const;
