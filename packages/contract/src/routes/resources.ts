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
    metrics: z.partialRecord(
      z.enum(['cpu', 'memory', 'disk', 'netin', 'netout', 'diskread', 'diskwrite']),
      metricValue,
    ),
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

export const resourceRoutes = {
  listResources: defineRoute({
    method: 'GET',
    path: '/api/resources',
    summary: 'Find resources by type, source, status, parent, cluster, name or tags; paginated, with counts',
    tag: 'Resources',
    access: 'auth',
    scopes: ['monitoring:read'],
    query: resourceListQuery,
    response: resourceListResponse,
  }),
} as const;
