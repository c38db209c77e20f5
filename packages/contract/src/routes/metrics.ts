import { z } from 'zod';
import { queryInt } from '../common.js';
import { defineRoute } from '../route.js';

/** Resource types the metrics store keys series by. */
export const metricsResourceTypes = ['node', 'vm', 'container', 'storage', 'ctrHost', 'ctrContainer'] as const;
export type MetricsResourceType = (typeof metricsResourceTypes)[number];

/** Accepted on reads: `guest` is a vm or an LXC container with that id, `ctr` a container-runtime container. */
export const metricsResourceTypeAliases = ['guest', 'ctr'] as const;

export const metricNames = [
  'cpu',
  'memory',
  'disk',
  'diskread',
  'diskwrite',
  'netin',
  'netout',
  'temperature',
] as const;
export type MetricName = (typeof metricNames)[number];

/** Which metrics are recorded per resource type; a write of any other pair is dropped. */
export const metricsByResourceType: Record<MetricsResourceType, readonly MetricName[]> = {
  node: ['cpu', 'memory', 'disk', 'diskread', 'diskwrite', 'netin', 'netout', 'temperature'],
  vm: ['cpu', 'memory', 'disk', 'diskread', 'diskwrite', 'netin', 'netout'],
  container: ['cpu', 'memory', 'disk', 'diskread', 'diskwrite', 'netin', 'netout'],
  storage: ['disk'],
  ctrHost: ['cpu', 'memory', 'disk', 'netin', 'netout', 'temperature'],
  ctrContainer: ['cpu', 'memory', 'disk', 'diskread', 'diskwrite', 'netin', 'netout'],
};

export const metricsTiers = ['raw', 'minute', 'hour', 'day'] as const;
export type MetricsTier = (typeof metricsTiers)[number];

const unitSeconds = { m: 60, h: 3600, d: 86_400, w: 604_800 } as const;
const RANGE_FORMAT = /^(?:\d{1,5}[mhdw])+$/;
export const MIN_RANGE_SECONDS = 60;
export const MAX_RANGE_SECONDS = 366 * 86_400;

/** Seconds in a range like `24h`, `90m`, `7d` or `1h30m`; null when it is not one. */
export function parseRangeSeconds(range: string): number | null {
  if (!RANGE_FORMAT.test(range)) return null;
  let total = 0;
  for (const m of range.matchAll(/(\d+)([mhdw])/g))
    total += Number(m[1]) * unitSeconds[m[2] as keyof typeof unitSeconds];
  return total;
}

const rangeHelp = 'a range: 1h, 6h, 12h, 24h, 1d, 7d, 30d, 90d, or a duration like 36h, 90m, 2d or 1h30m (1m to 366d)';

export const metricsHistoryQuery = z.object({
  resourceType: z
    .enum([...metricsResourceTypes, ...metricsResourceTypeAliases])
    .describe('node, vm, container, storage, ctrHost, ctrContainer; aliases guest (vm, else container) and ctr'),
  resourceId: z.string().min(1).max(256),
  metric: z.enum(metricNames).optional().describe('One metric; all recorded metrics when omitted'),
  range: z
    .string()
    .refine((r) => {
      const s = parseRangeSeconds(r);
      return s !== null && s >= MIN_RANGE_SECONDS && s <= MAX_RANGE_SECONDS;
    }, `expected ${rangeHelp}`)
    .default('24h'),
  maxPoints: queryInt(1, 5000).default(500).describe('Downsampling target: at most this many buckets per series'),
});

export const metricsPoint = z
  .object({
    t: z.number().int().describe('Bucket start, Unix milliseconds'),
    avg: z.number(),
    min: z.number(),
    max: z.number(),
  })
  .meta({ id: 'MetricsPoint' });

export const metricsHistory = z
  .object({
    resourceType: z.enum(metricsResourceTypes).describe('The canonical type the query resolved to'),
    resourceId: z.string(),
    range: z.string(),
    start: z.number().int().describe('Unix milliseconds'),
    end: z.number().int().describe('Unix milliseconds'),
    stepSeconds: z.number().int().describe('Bucket width of the returned points'),
    tier: z.enum(metricsTiers).describe('The coarsest stored tier that gives the requested resolution'),
    series: z.array(z.object({ metric: z.enum(metricNames), points: z.array(metricsPoint) })),
  })
  .meta({ id: 'MetricsHistory' });

export const metricsStoreStats = z
  .object({
    tiers: z.array(
      z.object({
        tier: z.enum(metricsTiers),
        resolutionSeconds: z.number().int(),
        retentionSeconds: z.number().int(),
        rows: z.number().int(),
        oldest: z.number().int().nullable().describe('Unix milliseconds of the oldest row'),
        newest: z.number().int().nullable().describe('Unix milliseconds of the newest row'),
        rolledUpTo: z.number().int().nullable().describe('Rollup tiers: Unix ms up to which buckets are complete'),
      }),
    ),
    series: z.number().int().describe('Distinct resource and metric pairs'),
    diskBytes: z.number().int().describe('Bytes the metrics tables (and their indexes) occupy'),
    writes: z.object({
      pointsPerSecond: z.number().describe('Average over the last five minutes'),
      pointsTotal: z.number().int().describe('Points written since this svc process started'),
      rejectedTotal: z.number().int().describe('Points dropped: unknown metric for the type or a non-finite value'),
      lastWriteAt: z.number().int().nullable().describe('Unix milliseconds'),
    }),
  })
  .meta({ id: 'MetricsStoreStats' });

export const metricsRoutes = {
  getMetricsStoreStats: defineRoute({
    method: 'GET',
    path: '/api/metrics-store/stats',
    summary: 'Persistent metrics store: rows per tier, disk size, oldest and newest rows, write rate',
    tag: 'Metrics',
    access: 'auth',
    scopes: ['monitoring:read'],
    response: metricsStoreStats,
  }),
  getMetricsHistory: defineRoute({
    method: 'GET',
    path: '/api/metrics-store/history',
    summary: 'Historical series of one resource, downsampled to maxPoints buckets of avg, min and max',
    description: 'A range beyond 7 days needs the licence feature long_term_metrics (else 402).',
    tag: 'Metrics',
    access: 'auth',
    scopes: ['monitoring:read'],
    query: metricsHistoryQuery,
    response: metricsHistory,
  }),
} as const;
