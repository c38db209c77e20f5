import { z } from 'zod';
import { defineRoute } from '../route.js';

export const resourceTypeValues = ['host', 'vm', 'lxc', 'container', 'storage', 'bak', 'mail', 'ceph'] as const;
export const resourceSourceValues = ['hv', 'agent', 'ctr', 'bak', 'mail', 'orch'] as const;
export const resourceStatusValues = ['online', 'offline', 'warning', 'unknown'] as const;
export const resourceSortValues = ['name', 'status', 'type', 'lastSeen'] as const;

/** A comma-separated list whose every item must be one of `values`; the error names the bad item. */
function csvOf<const T extends string>(values: readonly T[]) {
  return z
    .string()
    .transform((s, ctx) => {
      const items = s
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean);
      const bad = items.filter((x) => !(values as readonly string[]).includes(x));
      if (bad.length > 0) {
        ctx.addIssue({ code: 'custom', message: `unknown value ${bad.join(', ')}; accepts ${values.join(', ')}` });
        return z.NEVER;
      }
      return items as T[];
    })
    .describe(`Comma-separated; any of ${values.join(', ')}`);
}

export const resourceListQuery = z.object({
  type: csvOf(resourceTypeValues).optional(),
  source: csvOf(resourceSourceValues).optional(),
  status: csvOf(resourceStatusValues).optional(),
  parent: z.string().min(1).optional(),
  cluster: z.string().min(1).optional(),
  q: z.string().max(200).optional().describe('Name contains (case-insensitive)'),
  tags: z
    .string()
    .transform((s) =>
      s
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean),
    )
    .optional()
    .describe('Comma-separated; a resource must carry all of them'),
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(100, 'limit accepts 1 to 100').default(50),
  sort: z.enum(resourceSortValues).default('name'),
  order: z.enum(['asc', 'desc']).default('asc'),
});
export type ResourceListQuery = z.infer<typeof resourceListQuery>;

const metricValue = z.number();

export const resourceSchema = z
  .object({
    id: z.string(),
    type: z.enum(resourceTypeValues),
    name: z.string(),
    status: z.enum(resourceStatusValues),
    sources: z.array(z.enum(resourceSourceValues)),
    sourceStatus: z.partialRecord(z.enum(resourceSourceValues), z.enum(resourceStatusValues)),
    parentId: z.string().optional(),
    cluster: z.string().optional(),
    tags: z.array(z.string()),
    lastSeen: z.string().describe('ISO 8601'),
    identity: z.object({
      machineId: z.string().optional(),
      hostnames: z.array(z.string()).optional(),
      clusterName: z.string().optional(),
    }),
    metrics: z
      .partialRecord(z.enum(['cpu', 'memory', 'disk', 'netin', 'netout', 'diskread', 'diskwrite']), metricValue)
      .describe('cpu, memory and disk in percent; netin, netout, diskread and diskwrite in bytes per second'),
    members: z
      .array(z.string())
      .describe('The observations merged into this resource, as source:sourceId (primary first)'),
  })
  .meta({ id: 'Resource' });

const counts = z.record(z.string(), z.number().int());

export const resourceListResponse = z
  .object({
    data: z.array(resourceSchema),
    meta: z.object({
      page: z.number().int(),
      limit: z.number().int(),
      total: z.number().int(),
      totalPages: z.number().int(),
    }),
    aggregations: z.object({ total: z.number().int(), byType: counts, byStatus: counts, bySource: counts }),
  })
  .meta({ id: 'ResourceList' });

const resourceIdParams = z.object({ id: z.string().min(1).max(256) });

export const resourceLinkBody = z.object({
  targetId: z.string().min(1).max(256).describe('The other resource id (or one of its members, source:sourceId)'),
  reason: z.string().max(1000).optional(),
});

export const resourceReportMergeBody = z.object({
  sources: z
    .array(z.string().min(1).max(256))
    .min(1)
    .max(50)
    .describe('Sources (hv, agent...) or members (source:sourceId) of the resource that must not be merged'),
  notes: z.string().max(2000).optional(),
});

export const resourceStats = z
  .object({
    total: z.number().int(),
    byType: counts,
    byStatus: counts,
    bySource: counts,
    merged: z.number().int().describe('Resources seen by more than one source'),
    health: z.object({
      healthy: z.number().int().describe('online'),
      degraded: z.number().int().describe('warning'),
      down: z.number().int().describe('offline'),
      unknown: z.number().int(),
    }),
    overrides: z.object({ links: z.number().int(), exclusions: z.number().int() }),
    lastUpdate: z.string().nullable().describe('ISO 8601 of the live state the view was built from'),
  })
  .meta({ id: 'ResourceStats' });

export const resourceChildren = z.object({
  data: z.array(resourceSchema),
  meta: z.object({ total: z.number().int() }),
});

export const resourceMetrics = z
  .object({
    id: z.string(),
    type: z.enum(resourceTypeValues),
    current: resourceSchema.shape.metrics,
    lastSeen: z.string(),
    history: z
      .object({
        resourceType: z.string(),
        range: z.string(),
        series: z.array(
          z.object({
            metric: z.string(),
            points: z.array(z.object({ t: z.number().int(), avg: z.number(), min: z.number(), max: z.number() })),
          }),
        ),
      })
      .nullable()
      .describe('The last hour from the metrics store; null for types the store does not record'),
  })
  .meta({ id: 'ResourceMetrics' });

export const resourceOverrideResult = z
  .object({
    resource: resourceSchema.nullable().describe('The resource after the change (null if it no longer exists)'),
    overrides: z.array(
      z.object({ kind: z.enum(['link', 'exclude']), a: z.string(), b: z.string(), reason: z.string().optional() }),
    ),
  })
  .meta({ id: 'ResourceOverrideResult' });

const readAccess = { access: 'auth', scopes: ['monitoring:read'], tag: 'Resources' } as const;
const writeAccess = { access: 'auth', scopes: ['monitoring:write'], tag: 'Resources' } as const;

export const resourceRoutes = {
  listResources: defineRoute({
    method: 'GET',
    path: '/api/resources',
    summary: 'Find resources by type, source, status, parent, cluster, name or tags; paginated, with counts',
    ...readAccess,
    query: resourceListQuery,
    response: resourceListResponse,
  }),
  getResourceStats: defineRoute({
    method: 'GET',
    path: '/api/resources/stats',
    summary: 'Counts by type, status and source, health rollup, merge overrides',
    ...readAccess,
    response: resourceStats,
  }),
  getResource: defineRoute({
    method: 'GET',
    path: '/api/resources/{id}',
    summary: 'One resource',
    ...readAccess,
    params: resourceIdParams,
    response: resourceSchema,
  }),
  getResourceChildren: defineRoute({
    method: 'GET',
    path: '/api/resources/{id}/children',
    summary: 'Resources whose parent is this one (guests and storage of a host)',
    ...readAccess,
    params: resourceIdParams,
    response: resourceChildren,
  }),
  getResourceMetrics: defineRoute({
    method: 'GET',
    path: '/api/resources/{id}/metrics',
    summary: 'Current values of a resource and its last hour from the metrics store',
    ...readAccess,
    params: resourceIdParams,
    response: resourceMetrics,
  }),
  linkResource: defineRoute({
    method: 'POST',
    path: '/api/resources/{id}/link',
    summary: 'Merge two resources into one by a manual link (persisted, audited)',
    ...writeAccess,
    params: resourceIdParams,
    body: resourceLinkBody,
    response: resourceOverrideResult,
  }),
  unlinkResource: defineRoute({
    method: 'POST',
    path: '/api/resources/{id}/unlink',
    summary: 'Split a member off a merged resource and keep it apart (persisted, audited)',
    ...writeAccess,
    params: resourceIdParams,
    body: resourceLinkBody,
    response: resourceOverrideResult,
  }),
  reportResourceMerge: defineRoute({
    method: 'POST',
    path: '/api/resources/{id}/report-merge',
    summary: 'Report a wrong automatic merge: records exclusions so the sources stay split',
    ...writeAccess,
    params: resourceIdParams,
    body: resourceReportMergeBody,
    response: resourceOverrideResult,
  }),
} as const;
