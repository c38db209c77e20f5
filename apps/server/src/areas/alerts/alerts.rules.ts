import type { AlertConfig, AlertLevel, AlertOverride, ThresholdPair } from '@svc/contract';
import type { BakInstanceRecord, GuestRecord, NodeRecord, StorageRecord } from '../../collectors/index.js';
import { clearOf, delaySeconds } from './alerts.config.js';

/** Quiet-hours categories (A.7): criticals of a category are deferred only when its suppress flag is set. */
export type Category = 'performance' | 'storage' | 'offline' | 'backup';

/** What one rule saw for one alert key at one evaluation. */
export interface Observation {
  id: string;
  type: string;
  category: Category;
  resourceType: string;
  resourceId: string;
  resourceName: string;
  node: string;
  instance: string;
  /** above: fire (after the delay); between: keep an active alert, start nothing; below: resolve. */
  state: 'above' | 'between' | 'below';
  level: AlertLevel;
  value: number;
  threshold: number;
  clear: number;
  message: string;
  delayMs: number;
  /** Tracked and shown, never notified (tag `svc-monitor-only`). */
  monitorOnly?: boolean;
}

/** The observations of one evaluation unit; `partial` keeps active alerts the unit did not report on. */
export interface UnitResult {
  owner: string;
  observations: Observation[];
  partial: boolean;
}

export type Base = Pick<Observation, 'resourceType' | 'resourceId' | 'resourceName' | 'node' | 'instance' | 'category'>;
const MB = 1024 * 1024;
const round1 = (v: number) => Math.round(v * 10) / 10;

/** Critical at trigger+10, capped at 99 for percentages (A.3), never below the trigger. */
function criticalAt(trigger: number, percent: boolean): number {
  return Math.max(trigger, percent ? Math.min(trigger + 10, 99) : trigger + 10);
}

/** One threshold metric with hysteresis; nothing when the pair is off (trigger 0). */
export function metric(
  c: AlertConfig,
  base: Base,
  m: { name: string; value: number; pair: ThresholdPair; unit: '%' | 'MB/s' | '°C'; label: string },
): Observation | undefined {
  if (!(m.pair.trigger > 0) || !Number.isFinite(m.value)) return undefined;
  const clear = clearOf(m.pair, c.hysteresisMargin);
  const state = m.value >= m.pair.trigger ? 'above' : m.value > clear ? 'between' : 'below';
  const level = m.value >= criticalAt(m.pair.trigger, m.unit === '%') ? 'critical' : 'warning';
  const shown = m.unit === '%' ? `${round1(m.value).toFixed(1)}%` : `${round1(m.value).toFixed(1)} ${m.unit}`;
  return {
    ...base,
    id: `${base.resourceId}-${m.name}`,
    type: m.name,
    state,
    level,
    value: round1(m.value),
    threshold: m.pair.trigger,
    clear,
    message: `${m.label} ${m.name} at ${shown}`,
    delayMs: delaySeconds(c, base.resourceType, m.name) * 1000,
  };
}

/** A condition (offline, powered off...): above while it holds, below otherwise. */
export function condition(
  c: AlertConfig,
  base: Base,
  o: { id: string; type: string; holds: boolean; level: AlertLevel; message: string; delayType?: string },
): Observation {
  return {
    ...base,
    id: o.id,
    type: o.type,
    state: o.holds ? 'above' : 'below',
    level: o.level,
    value: o.holds ? 1 : 0,
    threshold: 1,
    clear: 0,
    message: o.message,
    delayMs: o.delayType === undefined ? 0 : delaySeconds(c, o.delayType, o.type) * 1000,
  };
}

const pick = (o: AlertOverride | undefined, key: keyof AlertOverride, d: ThresholdPair): ThresholdPair =>
  (o?.[key] as ThresholdPair | undefined) ?? d;
export const compact = (xs: Array<Observation | undefined>) => xs.filter((x): x is Observation => x !== undefined);

/** The offline alert every instance kind has; undefined when it is switched off for the kind or the resource. */
export function offlineCondition(
  c: AlertConfig,
  base: Base,
  off: { disabled: boolean | undefined; offline: boolean; what: string },
): Observation | undefined {
  if (off.disabled) return undefined;
  return condition(c, base, {
    id: `${base.resourceType}-offline-${base.resourceId}`,
    type: 'offline',
    holds: off.offline,
    level: 'critical',
    message: `${off.what} '${base.resourceName}' is offline`,
  });
}

export function nodeRules(c: AlertConfig, n: NodeRecord): UnitResult {
  const owner = `nodes:${n.id}`;
  const o = c.overrides[n.id];
  if (c.disableAllNodes || o?.disabled) return { owner, observations: [], partial: false };
  const base: Base = {
    resourceType: 'node',
    resourceId: n.id,
    resourceName: n.name,
    node: n.node,
    instance: n.instance,
    category: 'offline',
  };
  const offline = n.status === 'offline';
  const conn = offlineCondition(c, base, {
    disabled: c.disableAllNodesOffline || o?.disableConnectivity,
    offline,
    what: 'Node',
  });
  // An unreachable node reports zeros: its metric alerts are held, not falsely resolved.
  if (offline || n.status === 'unknown') return { owner, observations: compact([conn]), partial: true };
  const perf: Base = { ...base, category: 'performance' };
  const d = c.nodeDefaults;
  return {
    owner,
    partial: false,
    observations: compact([
      conn,
      metric(c, perf, { name: 'cpu', value: n.cpu * 100, pair: pick(o, 'cpu', d.cpu), unit: '%', label: 'Node' }),
      metric(c, perf, {
        name: 'memory',
        value: n.memory.usage,
        pair: pick(o, 'memory', d.memory),
        unit: '%',
        label: 'Node',
      }),
      metric(c, perf, { name: 'disk', value: n.disk.usage, pair: pick(o, 'disk', d.disk), unit: '%', label: 'Node' }),
    ]),
  };
}

const tagsOf = (g: GuestRecord) => new Set((g.tags ?? '').split(/[;,\s]+/).filter(Boolean));

export function guestRules(c: AlertConfig, g: GuestRecord): UnitResult {
  const owner = `guests:${g.id}`;
  const o = c.overrides[g.id];
  const tags = tagsOf(g);
  if (g.template || c.disableAllGuests || o?.disabled || tags.has('svc-no-alerts'))
    return { owner, observations: [], partial: false };
  // Unreachable instance: nothing is known, so nothing fires and nothing resolves.
  if (g.status === 'unknown') return { owner, observations: [], partial: true };
  const label = g.type === 'qemu' ? 'VM' : 'Container';
  const base: Base = {
    resourceType: 'guest',
    resourceId: g.id,
    resourceName: g.name,
    node: g.node,
    instance: g.instance,
    category: 'offline',
  };
  const severity = o?.poweredOffSeverity ?? c.guestDefaults.poweredOffSeverity;
  // A guest stopped by a backup (lock) is expected to come back; paused/suspended is not "off".
  const off = g.status === 'stopped' && g.lock !== 'backup';
  const powered =
    c.disableAllGuestsOffline || o?.disableConnectivity
      ? undefined
      : condition(c, base, {
          id: `guest-powered-off-${g.id}`,
          type: 'powered-off',
          holds: off,
          level: severity,
          message: `${label} '${g.name}' is powered off`,
          delayType: 'guest',
        });
  const obs = compact([powered]);
  if (g.status === 'running') obs.push(...guestMetrics(c, g, o, { ...base, category: 'performance' }, label));
  const monitorOnly = tags.has('svc-monitor-only');
  return { owner, partial: false, observations: monitorOnly ? obs.map((x) => ({ ...x, monitorOnly })) : obs };
}

function guestMetrics(c: AlertConfig, g: GuestRecord, o: AlertOverride | undefined, base: Base, label: string) {
  const d = c.guestDefaults;
  const m = (name: keyof typeof d & keyof AlertOverride, value: number, unit: '%' | 'MB/s') =>
    metric(c, base, { name, value, pair: pick(o, name, d[name] as ThresholdPair), unit, label });
  return compact([
    m('cpu', g.cpu * 100, '%'),
    m('memory', g.memory.usage, '%'),
    g.diskSource === 'none' || g.disk.total <= 0 ? undefined : m('disk', g.disk.usage, '%'),
    m('diskRead', g.diskRead / MB, 'MB/s'),
    m('diskWrite', g.diskWrite / MB, 'MB/s'),
    m('networkIn', g.networkIn / MB, 'MB/s'),
    m('networkOut', g.networkOut / MB, 'MB/s'),
  ]);
}

export function storageRules(c: AlertConfig, s: StorageRecord): UnitResult {
  const owner = `storage:${s.id}`;
  const o = c.overrides[s.id];
  if (c.disableAllStorage || o?.disabled || !s.enabled) return { owner, observations: [], partial: false };
  const base: Base = {
    resourceType: 'storage',
    resourceId: s.id,
    resourceName: s.name,
    node: s.node,
    instance: s.instance,
    category: 'storage',
  };
  const unavailable = s.status === 'unavailable';
  const conn = o?.disableConnectivity
    ? undefined
    : condition(c, base, {
        id: `storage-offline-${s.id}`,
        type: 'offline',
        holds: unavailable,
        level: 'warning',
        message: `Storage '${s.name}' on node ${s.node} is unavailable`,
        delayType: 'storage',
      });
  if (unavailable) return { owner, observations: compact([conn]), partial: true };
  const usage = metric(c, base, {
    name: 'usage',
    value: s.usage,
    pair: pick(o, 'usage', c.storageDefault),
    unit: '%',
    label: 'Storage',
  });
  return { owner, partial: false, observations: compact([conn, usage]) };
}

export function bakRules(c: AlertConfig, b: BakInstanceRecord): UnitResult {
  const owner = `pbs:${b.id}`;
  const o = c.overrides[b.id];
  if (c.disableAllPBS || o?.disabled) return { owner, observations: [], partial: false };
  const base: Base = {
    resourceType: 'pbs',
    resourceId: b.id,
    resourceName: b.name,
    node: b.name,
    instance: b.id,
    category: 'offline',
  };
  const offline = b.status === 'offline';
  const conn = offlineCondition(c, base, {
    disabled: c.disableAllPBSOffline || o?.disableConnectivity,
    offline,
    what: 'Backup server',
  });
  if (offline || b.status === 'unknown') return { owner, observations: compact([conn]), partial: true };
  const d = c.pbsDefaults;
  const perf: Base = { ...base, category: 'performance' };
  const obs = compact([
    conn,
    metric(c, perf, {
      name: 'cpu',
      value: b.cpu * 100,
      pair: pick(o, 'cpu', d.cpu),
      unit: '%',
      label: 'Backup server',
    }),
    metric(c, perf, {
      name: 'memory',
      value: b.memory,
      pair: pick(o, 'memory', d.memory),
      unit: '%',
      label: 'Backup server',
    }),
  ]);
  for (const ds of b.datastores) {
    const dsBase: Base = {
      ...base,
      resourceType: 'pbs-datastore',
      resourceId: `${b.id}-${ds.name}`,
      resourceName: `${b.name}/${ds.name}`,
      category: 'storage',
    };
    const pair = (c.overrides[dsBase.resourceId]?.usage as ThresholdPair | undefined) ?? d.datastore;
    obs.push(...compact([metric(c, dsBase, { name: 'usage', value: ds.usage, pair, unit: '%', label: 'Datastore' })]));
  }
  return {
    owner,
    partial: false,
    observations: obs.map((x) => ({ ...x, delayMs: delaySeconds(c, 'pbs', x.type) * 1000 })),
  };
}
