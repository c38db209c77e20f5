import type { Feature } from '@svc/contract';
import type { AreaDeps } from '../area.js';
import { createPollRecorder } from './metrics.recorder.js';
import { metricsHandlers } from './metrics.routes.js';
import { createMetricsService } from './metrics.service.js';
import { createMetricsStore } from './metrics.store.js';
import type { Retention } from './metrics.tiers.js';

export type { MetricPoint, WriteResult } from './metrics.store.js';

export interface MetricsAreaOptions {
  hasFeature?: (feature: Feature) => boolean;
  /** Per-tier retention in seconds (raw, minute, hour, day); unset tiers keep the defaults. */
  retention?: Partial<Retention>;
  /** Seconds a raw sample may arrive after its timestamp before its minute is rolled up (default 30). */
  lateSeconds?: number;
}

/** The metrics store area. Collectors call `service.recordBatch`; the scheduler calls `service.runMaintenance`. */
export function createMetricsArea(deps: AreaDeps, opts: MetricsAreaOptions = {}) {
  const store = createMetricsStore(deps.db, { lateSeconds: opts.lateSeconds });
  const service = createMetricsService(store, {
    clock: deps.clock,
    hasFeature: opts.hasFeature ?? deps.hasFeature ?? (() => false),
    retention: opts.retention,
  });
  const recordPoll = createPollRecorder((points) => service.recordBatch(points), deps.log);
  return { service, handlers: metricsHandlers(service), jobs: metricsJobs(service), recordPoll };
}

export type MetricsArea = ReturnType<typeof createMetricsArea>;

/** Rollup and retention as one job for the scheduler: every 15 minutes, like the reference. */
function metricsJobs(service: ReturnType<typeof createMetricsService>) {
  return [{ name: 'metrics-maintenance', intervalMs: 15 * 60_000, run: () => service.runMaintenance() }] as const;
}
