import {
  type Feature,
  type MetricName,
  type MetricsResourceType,
  metricsByResourceType,
  type metricsHistory,
  type metricsHistoryQuery,
  type metricsStoreStats,
  parseRangeSeconds,
} from '@svc/contract';
import { AppError, type Clock } from '@svc/platform';
import type { z } from 'zod';
import type { Caller } from '../../platform/http/principal.js';
import { downsample } from './metrics.downsample.js';
import type { MetricPoint, MetricsStore, WriteResult } from './metrics.store.js';
import {
  defaultRetention,
  FREE_HISTORY_SECONDS,
  longTermHourRetention,
  planQuery,
  type Retention,
  segmentsFor,
  tiers,
} from './metrics.tiers.js';
import { createWriteRate } from './metrics.write-rate.js';

export type HistoryQuery = z.infer<typeof metricsHistoryQuery>;
export type History = z.input<typeof metricsHistory>;
export type StoreStats = z.input<typeof metricsStoreStats>;

export interface MetricsServiceOptions {
  clock: Clock;
  hasFeature: (feature: Feature) => boolean;
  /** Per-tier retention in seconds; the hourly default grows to 90 days with long_term_metrics. */
  retention?: Partial<Retention>;
}

const orgOf = (caller: Caller): string => caller?.orgId ?? 'default';

export function createMetricsService(store: MetricsStore, opts: MetricsServiceOptions) {
  const rate = createWriteRate(opts.clock);

  /** Effective retention now: configured values win; otherwise the defaults, licence-aware for `hour`. */
  function retention(): Retention {
    const hour = opts.hasFeature('long_term_metrics') ? longTermHourRetention : defaultRetention.hour;
    return { ...defaultRetention, hour, ...opts.retention };
  }

  /** `guest` is whichever of vm or container has series under that id (vm when both or neither). */
  async function resolveResource(orgId: string, q: HistoryQuery) {
    const type = q.resourceType;
    if (type === 'guest') {
      const vm = await store.findSeries(orgId, 'vm', q.resourceId);
      if (vm.size > 0) return { type: 'vm' as const, series: vm };
      const ct = await store.findSeries(orgId, 'container', q.resourceId);
      return ct.size > 0 ? { type: 'container' as const, series: ct } : { type: 'vm' as const, series: vm };
    }
    const canonical: MetricsResourceType = type === 'ctr' ? 'ctrContainer' : type;
    return { type: canonical, series: await store.findSeries(orgId, canonical, q.resourceId) };
  }

  function checkQuery(q: HistoryQuery): number {
    const seconds = parseRangeSeconds(q.range);
    if (seconds === null) throw new AppError('validation_failed', `range ${q.range} is not a range such as 24h.`);
    if (seconds > FREE_HISTORY_SECONDS && !opts.hasFeature('long_term_metrics')) {
      throw new AppError(
        'license_required',
        `A history range beyond 7 days (${q.range}) needs a licence with the feature long_term_metrics.`,
        { feature: 'long_term_metrics' },
      );
    }
    return seconds;
  }

  return {
    retention,

    /** One poll's points, one transaction. Called by collectors and agent reports. */
    async recordBatch(points: readonly MetricPoint[]): Promise<WriteResult> {
      const r = await store.writeBatch(points);
      rate.add(r);
      return r;
    },

    async getHistory(caller: Caller, q: HistoryQuery): Promise<History> {
      const rangeSeconds = checkQuery(q);
      const { type, series } = await resolveResource(orgOf(caller), q);
      const known = metricsByResourceType[type];
      if (q.metric && !known.includes(q.metric)) {
        throw new AppError(
          'validation_failed',
          `metric ${q.metric} is not recorded for ${type}; it records ${known.join(', ')}.`,
          {
            issues: [{ location: 'query', field: 'metric', message: `one of ${known.join(', ')}` }],
          },
        );
      }
      const metrics: readonly MetricName[] = q.metric ? [q.metric] : known;
      const endMs = opts.clock.now();
      const end = Math.floor(endMs / 1000) + 1;
      const start = end - rangeSeconds;
      const plan = planQuery(rangeSeconds, q.maxPoints, retention());
      const segments = segmentsFor(plan.tier, start, end, await store.watermarks());
      const ids = metrics.map((m) => series.get(m)).filter((id): id is number => id !== undefined);
      const rows = await store.readSegments(ids, segments, plan.step);
      const window = { start, end, step: plan.step, maxPoints: q.maxPoints };
      return {
        resourceType: type,
        resourceId: q.resourceId,
        range: q.range,
        start: start * 1000,
        end: endMs,
        stepSeconds: plan.step,
        tier: plan.tier,
        series: metrics.map((metric) => {
          const id = series.get(metric);
          return { metric, points: id === undefined ? [] : downsample(rows.get(id) ?? [], window) };
        }),
      };
    },

    async getStats(_caller: Caller): Promise<StoreStats> {
      const [counts, seriesCount, diskBytes, wm] = await Promise.all([
        store.tierCounts(),
        store.seriesCount(),
        store.diskBytes(),
        store.watermarks(),
      ]);
      const ret = retention();
      const ms = (s: number | null) => (s === null ? null : s * 1000);
      return {
        tiers: counts.map((c) => ({
          tier: c.tier,
          resolutionSeconds: tiers.find((t) => t.tier === c.tier)!.resolution,
          retentionSeconds: ret[c.tier],
          rows: c.rows,
          oldest: ms(c.oldest),
          newest: ms(c.newest),
          rolledUpTo: c.tier === 'raw' ? null : ms(wm[c.tier]),
        })),
        series: seriesCount,
        diskBytes,
        writes: rate.snapshot(),
      };
    },

    /** The scheduled job: roll every tier forward, then drop what retention no longer keeps. */
    async runMaintenance(nowMs: number = opts.clock.now()) {
      const now = Math.floor(nowMs / 1000);
      const rolled = await store.rollup(now);
      const pruned = await store.prune(now, retention());
      return { rolled, pruned };
    },
  };
}

export type MetricsService = ReturnType<typeof createMetricsService>;
