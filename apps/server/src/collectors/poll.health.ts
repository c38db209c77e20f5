import type { LoopEntry } from '../platform/jobs/index.js';
import type { InstanceConfig } from './collector.js';
import type { NodeKind } from './model.js';
import type { BreakerState, PollState } from './poll.policy.js';

/** GET /api/monitoring/scheduler/health, shaped as in the reference; times are ISO strings. */
export interface SchedulerHealth {
  updatedAt: string;
  enabled: boolean;
  queue: { depth: number; dueWithinSeconds: number; perType: Partial<Record<NodeKind, number>> };
  deadLetter: {
    count: number;
    tasks: Array<{ instance: string; type: NodeKind; nextRun: string; lastError?: string; failures: number }>;
  };
  breakers: Array<{ instance: string; type: NodeKind; state: BreakerState; failures: number; retryAt?: string }>;
  staleness: Array<{ instance: string; type: NodeKind; score: number; lastSuccess?: string; lastError?: string }>;
  instances: InstanceHealth[];
}

export interface InstanceHealth {
  key: string;
  type: NodeKind;
  displayName: string;
  instance: string;
  connection: 'healthy' | 'degraded' | 'error';
  pollStatus: {
    lastSuccess?: string;
    lastError?: { at: string; message: string; category: string };
    consecutiveFailures: number;
    firstFailureAt?: string;
  };
  breaker: { state: BreakerState; since?: string; lastTransition?: string; retryAt?: string; failureCount: number };
  deadLetter: {
    present: boolean;
    reason?: string;
    firstAttempt?: string;
    lastAttempt?: string;
    retryCount?: number;
    nextRetry?: string;
  };
  nextRun?: string;
  warnings: string[];
}

interface HealthSource {
  cfg: InstanceConfig;
  state: PollState;
  warnings: string[];
  collector: { endpoints(): Array<{ name: string; healthy: boolean; lastError: string | undefined }> };
}

/** Window for `queue.dueWithinSeconds`: polls due within it are counted. */
const DUE_WINDOW_MS = 12_000;

const iso = (t: number | undefined): string | undefined => (t === undefined ? undefined : new Date(t).toISOString());

/** Drop undefined values so the JSON stays lean and `?` fields are really absent. */
function compact<T extends object>(o: T): T {
  for (const k of Object.keys(o) as Array<keyof T>) if (o[k] === undefined) delete o[k];
  return o;
}

/** 0 = fresh, 1 = stale (no success for ten intervals, or never). */
const staleness = (now: number, lastSuccess: number | undefined, intervalMs: number): number =>
  lastSuccess === undefined ? 1 : Math.min(1, Math.max(0, (now - lastSuccess - intervalMs) / (9 * intervalMs)));

export function buildHealth(
  now: number,
  sources: HealthSource[],
  entries: LoopEntry[],
  intervalOf: (cfg: InstanceConfig) => number,
): SchedulerHealth {
  const byKey = new Map(entries.map((e) => [e.key, e]));
  const instances = sources.map((s) => instanceHealth(s, byKey.get(s.cfg.id)));
  const perType: Partial<Record<NodeKind, number>> = {};
  for (const s of sources) perType[s.cfg.kind] = (perType[s.cfg.kind] ?? 0) + 1;
  return {
    updatedAt: new Date(now).toISOString(),
    enabled: true,
    queue: {
      depth: entries.length,
      dueWithinSeconds: entries.filter(
        (e) => e.running || (e.nextRunAt !== undefined && e.nextRunAt - now <= DUE_WINDOW_MS),
      ).length,
      perType,
    },
    deadLetter: {
      count: sources.filter((s) => s.state.deadLetter).length,
      tasks: sources
        .filter((s) => s.state.deadLetter)
        .map((s) =>
          compact({
            instance: s.cfg.id,
            type: s.cfg.kind,
            nextRun: iso(s.state.deadLetter?.nextRetry) ?? '',
            lastError: s.state.lastError?.message,
            failures: s.state.consecutiveFailures,
          }),
        ),
    },
    breakers: sources.map((s) =>
      compact({
        instance: s.cfg.id,
        type: s.cfg.kind,
        state: s.state.breaker.state,
        failures: s.state.breaker.failureCount,
        retryAt: iso(s.state.breaker.retryAt),
      }),
    ),
    staleness: sources.map((s) =>
      compact({
        instance: s.cfg.id,
        type: s.cfg.kind,
        score: Math.round(staleness(now, s.state.lastSuccess, intervalOf(s.cfg)) * 100) / 100,
        lastSuccess: iso(s.state.lastSuccess),
        lastError: s.state.lastError?.message,
      }),
    ),
    instances,
  };
}

function instanceHealth(s: HealthSource, entry: LoopEntry | undefined): InstanceHealth {
  const st = s.state;
  const down = s.collector.endpoints().filter((e) => !e.healthy);
  const connection =
    st.consecutiveFailures === 0
      ? down.length > 0
        ? 'degraded'
        : 'healthy'
      : st.deadLetter || st.breaker.state !== 'closed'
        ? 'error'
        : 'degraded';
  const dl = st.deadLetter;
  const health: InstanceHealth = {
    key: `${s.cfg.kind}::${s.cfg.id}`,
    type: s.cfg.kind,
    displayName: s.cfg.name,
    instance: s.cfg.id,
    connection,
    pollStatus: compact({
      lastSuccess: iso(st.lastSuccess),
      lastError: st.lastError && {
        at: iso(st.lastError.at) ?? '',
        message: st.lastError.message,
        category: st.lastError.category,
      },
      consecutiveFailures: st.consecutiveFailures,
      firstFailureAt: iso(st.firstFailureAt),
    }),
    breaker: compact({
      state: st.breaker.state,
      since: iso(st.breaker.since),
      lastTransition: iso(st.breaker.lastTransition),
      retryAt: iso(st.breaker.retryAt),
      failureCount: st.breaker.failureCount,
    }),
    deadLetter: dl
      ? {
          present: true,
          reason: dl.reason,
          firstAttempt: iso(dl.firstAttempt),
          lastAttempt: iso(dl.lastAttempt),
          retryCount: dl.retryCount,
          nextRetry: iso(dl.nextRetry),
        }
      : { present: false },
    warnings: [
      ...down.map((e) => `endpoint ${e.name} unreachable: ${e.lastError ?? 'unknown'}`),
      ...s.warnings.slice(0, 20),
    ],
  };
  const next = entry?.nextRunAt;
  if (next !== undefined) health.nextRun = iso(next) ?? '';
  return health;
}
