import { type MetricName, metricNames } from '@svc/contract';

const metricIndex = new Map<MetricName, number>(metricNames.map((m, i) => [m, i]));

interface SeriesKey {
  orgId: string;
  resourceType: string;
  resourceId: string;
  metric: MetricName;
}

/** Series ids of the dictionary, kept in memory: one small typed array per resource. */
export function createSeriesCache() {
  // org \u0001 type \u0001 id -> series id per metric index (0: not yet known). Series ids start at 1.
  const cache = new Map<string, Int32Array>();
  const keyOf = (p: { orgId: string; resourceType: string; resourceId: string }) =>
    `${p.orgId}\u0001${p.resourceType}\u0001${p.resourceId}`;

  // A poll lists all metrics of a resource together: remembering the previous resource skips most key builds.
  let last: { orgId: string; resourceType: string; resourceId: string; ids: Int32Array | undefined } | null = null;
  function cached(p: SeriesKey): number {
    if (!last || last.resourceId !== p.resourceId || last.resourceType !== p.resourceType || last.orgId !== p.orgId) {
      last = { orgId: p.orgId, resourceType: p.resourceType, resourceId: p.resourceId, ids: cache.get(keyOf(p)) };
    }
    return last.ids?.[metricIndex.get(p.metric)!] ?? 0;
  }
  function remember(p: SeriesKey, id: number): void {
    const key = keyOf(p);
    let ids = cache.get(key);
    if (!ids) {
      ids = new Int32Array(metricNames.length);
      cache.set(key, ids);
      last = null;
    }
    ids[metricIndex.get(p.metric)!] = id;
  }

  return { cached, remember };
}
