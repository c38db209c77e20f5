import type {
  BakInstanceRecord,
  GuestRecord,
  MailInstanceRecord,
  NodeRecord,
  StorageRecord,
} from '../../collectors/index.js';
import type { LiveState } from '../../state/index.js';
import type { Observation, ResourceStatus } from './resources.model.js';

/**
 * Live state -> observations. Source ids are stable: an hv guest is `<instance>/guest/<vmid>` (not its node),
 * so a migration inside the cluster keeps the same resource; nodes and storage are per instance.
 * Agent, ctr and orch observations are produced by their own adapters when those sources exist.
 */
export function observeLiveState(state: LiveState): Observation[] {
  const clusterOf = new Map<string, string>();
  const out: Observation[] = [];
  for (const n of state.get('nodes')) {
    if (n.clusterName) clusterOf.set(n.instance, n.clusterName);
    out.push(observeNode(n));
  }
  for (const g of state.get('vms')) out.push(observeGuest(g, clusterOf));
  for (const g of state.get('containers')) out.push(observeGuest(g, clusterOf));
  for (const s of state.get('storage')) out.push(observeStorage(s, clusterOf));
  for (const b of state.get('pbs')) out.push(observeBak(b));
  for (const m of state.get('pmg')) out.push(observeMail(m));
  return out;
}

const nodeSourceId = (instance: string, node: string) => `${instance}/node/${node}`;
const pct = (fraction: number) => round(fraction * 100);
const round = (x: number) => Math.round(x * 100) / 100;

export function observeNode(n: NodeRecord): Observation {
  return {
    source: 'hv',
    sourceId: nodeSourceId(n.instance, n.node),
    type: 'host',
    name: n.displayName || n.name,
    status: n.status,
    lastSeen: n.lastSeen,
    cluster: n.clusterName ?? n.instance,
    identity: { hostnames: [n.node], clusterName: n.clusterName },
    metrics: { cpu: pct(n.cpu), memory: round(n.memory.usage), disk: round(n.disk.usage) },
    metricsTarget: { resourceType: 'node', resourceId: n.id },
    aliases: [n.id],
  };
}

/** A guest's own run state mapped onto resource health: running is online, stopped offline. */
export function guestStatus(status: string): ResourceStatus {
  if (status === 'running') return 'online';
  if (status === 'stopped') return 'offline';
  if (status === 'paused' || status === 'suspended') return 'warning';
  return 'unknown';
}

function splitTags(tags: string | undefined): string[] {
  return (tags ?? '')
    .split(/[;,\s]+/)
    .map((t) => t.trim())
    .filter(Boolean);
}

export function observeGuest(g: GuestRecord, clusterOf: ReadonlyMap<string, string>): Observation {
  const lxc = g.type === 'lxc';
  return {
    source: 'hv',
    sourceId: `${g.instance}/guest/${g.vmid}`,
    type: lxc ? 'lxc' : 'vm',
    name: g.name,
    status: guestStatus(g.status),
    lastSeen: g.lastSeen,
    parentSourceId: nodeSourceId(g.instance, g.node),
    cluster: clusterOf.get(g.instance) ?? g.instance,
    tags: splitTags(g.tags),
    metrics: {
      cpu: pct(g.cpu),
      memory: round(g.memory.usage),
      disk: round(g.disk.usage),
      netin: g.networkIn,
      netout: g.networkOut,
      diskread: g.diskRead,
      diskwrite: g.diskWrite,
    },
    stableKey: `hv-guest:${g.instance}:${g.vmid}`,
    metricsTarget: { resourceType: lxc ? 'container' : 'vm', resourceId: g.id },
    aliases: [g.id],
  };
}

export function observeStorage(s: StorageRecord, clusterOf: ReadonlyMap<string, string>): Observation {
  const shared = s.shared || s.node === 'cluster';
  return {
    source: 'hv',
    sourceId: `${s.instance}/storage/${s.id}`,
    type: 'storage',
    name: s.name || s.storage,
    status: s.enabled && s.active ? 'online' : s.enabled ? 'offline' : 'unknown',
    lastSeen: 0,
    parentSourceId: shared ? undefined : nodeSourceId(s.instance, s.node),
    cluster: clusterOf.get(s.instance) ?? s.instance,
    metrics: { disk: round(s.usage) },
    metricsTarget: { resourceType: 'storage', resourceId: s.id },
    aliases: [s.id],
  };
}

export function observeBak(b: BakInstanceRecord): Observation {
  return {
    source: 'bak',
    sourceId: b.id,
    type: 'bak',
    name: b.name,
    status: b.status,
    lastSeen: b.lastSeen,
    identity: { hostnames: [hostOf(b.host)].filter(Boolean) },
    metrics: { cpu: pct(b.cpu), memory: round(b.memory) },
    aliases: [b.id],
  };
}

export function observeMail(m: MailInstanceRecord): Observation {
  return {
    source: 'mail',
    sourceId: m.id,
    type: 'mail',
    name: m.name,
    status: m.status,
    lastSeen: m.lastSeen,
    identity: { hostnames: [hostOf(m.host)].filter(Boolean) },
    aliases: [m.id],
  };
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return url;
  }
}
