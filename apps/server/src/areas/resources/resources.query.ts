import type { ResourceListQuery } from '@svc/contract';
import type { Resource, ResourceStatus } from './resources.model.js';

const statusRank: Record<ResourceStatus, number> = { offline: 0, warning: 1, unknown: 2, online: 3 };

type Comparator = (a: Resource, b: Resource) => number;

// One collator for every comparison: localeCompare with options builds a new one per call (100x slower).
const collator = new Intl.Collator('en', { sensitivity: 'base' });
const byName: Comparator = (a, b) => collator.compare(a.name, b.name) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
const comparators: Record<ResourceListQuery['sort'], Comparator> = {
  name: byName,
  status: (a, b) => statusRank[a.status] - statusRank[b.status] || byName(a, b),
  type: (a, b) => (a.type < b.type ? -1 : a.type > b.type ? 1 : 0) || byName(a, b),
  lastSeen: (a, b) => a.lastSeen - b.lastSeen || byName(a, b),
};

function matches(r: Resource, q: ResourceListQuery, needle: string | undefined): boolean {
  if (q.type && !q.type.includes(r.type)) return false;
  if (q.status && !q.status.includes(r.status)) return false;
  if (q.source && !r.sources.some((s) => q.source!.includes(s))) return false;
  if (q.parent && r.parentId !== q.parent) return false;
  if (q.cluster && r.cluster !== q.cluster) return false;
  if (needle && !r.name.toLowerCase().includes(needle)) return false;
  if (q.tags && q.tags.length > 0 && !q.tags.every((t) => r.tags.includes(t))) return false;
  return true;
}

function count(into: Record<string, number>, key: string): void {
  into[key] = (into[key] ?? 0) + 1;
}

/** Every resource in name order, for callers that cache it per snapshot (the default sort then costs nothing). */
export function sortByName(all: readonly Resource[]): Resource[] {
  return [...all].sort(byName);
}

/**
 * Filter, count, sort and page in one pass over the resources (aggregations cover the filtered set).
 * `byNameOrder`, when given, is `all` already sorted by name: name sorts then only filter.
 */
export function queryResources(all: readonly Resource[], q: ResourceListQuery, byNameOrder?: readonly Resource[]) {
  const presorted = q.sort === 'name' && byNameOrder !== undefined;
  if (presorted) all = q.order === 'asc' ? byNameOrder : [...byNameOrder].reverse();
  const needle = q.q?.toLowerCase();
  const hits: Resource[] = [];
  const byType: Record<string, number> = {};
  const byStatus: Record<string, number> = {};
  const bySource: Record<string, number> = {};
  for (const r of all) {
    if (!matches(r, q, needle)) continue;
    hits.push(r);
    count(byType, r.type);
    count(byStatus, r.status);
    for (const s of r.sources) count(bySource, s);
  }
  const cmp = comparators[q.sort];
  if (!presorted) hits.sort(q.order === 'asc' ? cmp : (a, b) => cmp(b, a));
  const start = (q.page - 1) * q.limit;
  return {
    data: hits.slice(start, start + q.limit),
    meta: { page: q.page, limit: q.limit, total: hits.length, totalPages: Math.ceil(hits.length / q.limit) },
    aggregations: { total: hits.length, byType, byStatus, bySource },
  };
}
