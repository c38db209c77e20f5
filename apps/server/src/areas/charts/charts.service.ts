import type { ChartRange, chartsResponse, MetricsResourceType, storageChartsResponse } from '@svc/contract';
import { parseRangeSeconds } from '@svc/contract';
import type { Clock } from '@svc/platform';
import type { z } from 'zod';
import type { Caller } from '../../platform/http/principal.js';
import type { LiveState } from '../../state/index.js';
import type { HistoryReader } from '../resources/index.js';

type Point = { timestamp: number; value: number };
type Charts = z.input<typeof chartsResponse>;
type StorageCharts = z.input<typeof storageChartsResponse>;

/** Points per series: enough for a dashboard sparkline at any range, small enough for hundreds of guests. */
const CHART_POINTS = 120;
/** Concurrent history reads per request, so a large estate does not flood the database pool. */
const BATCH = 32;

export interface ChartsDeps {
  state: LiveState;
  clock: Clock;
  history: HistoryReader;
}

async function inBatches<T, R>(items: readonly T[], fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += BATCH) out.push(...(await Promise.all(items.slice(i, i + BATCH).map(fn))));
  return out;
}

export function createChartsService({ state, clock, history }: ChartsDeps) {
  async function series(caller: Caller, resourceType: MetricsResourceType, resourceId: string, range: ChartRange) {
    const h = await history(caller, { resourceType, resourceId, range, maxPoints: CHART_POINTS });
    const pick = (metric: string): Point[] =>
      (h.series.find((s) => s.metric === metric)?.points ?? []).map((p) => ({
        timestamp: p.t,
        value: Math.round(p.avg * 100) / 100,
      }));
    return { cpu: pick('cpu'), memory: pick('memory'), disk: pick('disk') };
  }

  function window(range: ChartRange) {
    const end = clock.now();
    return { range, start: end - (parseRangeSeconds(range) ?? 0) * 1000, end };
  }

  return {
    async getCharts(caller: Caller, range: ChartRange): Promise<Charts> {
      const nodes = state.get('nodes');
      const guests = [...state.get('vms'), ...state.get('containers')];
      const storage = state.get('storage');
      const [n, g, s] = await Promise.all([
        inBatches(nodes, (x) => series(caller, 'node', x.id, range)),
        inBatches(guests, (x) => series(caller, x.type === 'lxc' ? 'container' : 'vm', x.id, range)),
        inBatches(storage, (x) => series(caller, 'storage', x.id, range)),
      ]);
      return {
        ...window(range),
        nodes: Object.fromEntries(nodes.map((x, i) => [x.id, n[i]!])),
        guests: Object.fromEntries(guests.map((x, i) => [x.id, g[i]!])),
        storage: Object.fromEntries(storage.map((x, i) => [x.id, { disk: s[i]!.disk }])),
      };
    },

    async getStorageCharts(caller: Caller, range: ChartRange): Promise<StorageCharts> {
      const storage = state.get('storage');
      const s = await inBatches(storage, (x) => series(caller, 'storage', x.id, range));
      return {
        ...window(range),
        storage: Object.fromEntries(
          storage.map((x, i) => [
            x.id,
            {
              name: x.name || x.storage,
              node: x.node,
              instance: x.instance,
              total: x.total,
              used: x.used,
              avail: x.avail,
              usage: x.usage,
              points: s[i]!.disk,
            },
          ]),
        ),
      };
    },
  };
}

export type ChartsService = ReturnType<typeof createChartsService>;
