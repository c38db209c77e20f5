import type { Logger } from '@svc/platform';
import type { GuestRecord, PollResult } from '../../collectors/index.js';
import { DEFAULT_ORG } from '../../platform/db/index.js';
import type { MetricPoint } from './metrics.store.js';

type Counters = { at: number; netin: number; netout: number; diskread: number; diskwrite: number };

const pct = (fraction: number) => Math.round(fraction * 10_000) / 100;

/**
 * Turns each poll into metric points: cpu, memory and disk in percent; network and disk I/O as bytes per
 * second, derived from the APIs' cumulative counters between two polls (a counter reset yields no point).
 */
export function createPollRecorder(record: (points: MetricPoint[]) => Promise<unknown>, log: Logger) {
  const last = new Map<string, Counters>();

  function rates(points: MetricPoint[], base: Omit<MetricPoint, 'metric' | 'value'>, g: GuestRecord, at: number) {
    const now: Counters = {
      at,
      netin: g.networkIn,
      netout: g.networkOut,
      diskread: g.diskRead,
      diskwrite: g.diskWrite,
    };
    const prev = last.get(g.id);
    last.set(g.id, now);
    if (!prev || at <= prev.at) return;
    const seconds = (at - prev.at) / 1000;
    for (const metric of ['netin', 'netout', 'diskread', 'diskwrite'] as const) {
      const delta = now[metric] - prev[metric];
      if (delta >= 0) points.push({ ...base, metric, value: delta / seconds });
    }
  }

  function fromPoll(result: PollResult): MetricPoint[] {
    if (result.kind !== 'hv') return [];
    const points: MetricPoint[] = [];
    const at = result.at;
    const push = (
      resourceType: MetricPoint['resourceType'],
      resourceId: string,
      metric: MetricPoint['metric'],
      value: number,
    ) => {
      if (Number.isFinite(value))
        points.push({ orgId: DEFAULT_ORG, resourceType, resourceId, metric, value, timestamp: at });
    };
    for (const n of result.nodes) {
      if (n.status !== 'online') continue;
      push('node', n.id, 'cpu', pct(n.cpu));
      push('node', n.id, 'memory', n.memory.usage);
      push('node', n.id, 'disk', n.disk.usage);
    }
    for (const g of [...result.vms, ...result.containers]) {
      if (g.status !== 'running') continue;
      const type = g.type === 'lxc' ? 'container' : 'vm';
      push(type, g.id, 'cpu', pct(g.cpu));
      push(type, g.id, 'memory', g.memory.usage);
      if (g.disk.total > 0) push(type, g.id, 'disk', g.disk.usage);
      rates(points, { orgId: DEFAULT_ORG, resourceType: type, resourceId: g.id, timestamp: at }, g, at);
    }
    for (const s of result.storage) if (s.total > 0) push('storage', s.id, 'disk', s.usage);
    return points;
  }

  return (_instanceId: string, result: PollResult): void => {
    const points = fromPoll(result);
    if (points.length === 0) return;
    record(points).catch((err: unknown) => log.error({ err, points: points.length }, 'recording metrics failed'));
  };
}
