import { createHash } from 'node:crypto';
import {
  type MergeOverride,
  type Observation,
  observationKey,
  type Resource,
  type ResourceStatus,
  type ResourceType,
} from './resources.model.js';

/**
 * Identity rules, in order:
 * 1. A manual exclusion keeps two observations apart; a manual link joins them. Overrides win over rules.
 * 2. Machines (type host) with the same machine id are one resource.
 * 3. Else machines whose short host name (lower case, before the first dot) is unique among each source's
 *    machines and equal across sources are one resource.
 * 4. Everything else stays separate: guests, storage and containers are never merged by name.
 * The resource id is `<type>-<16 hex of sha256(first member's stable key)>`, stable across restarts.
 */
export function resourceId(type: ResourceType, key: string): string {
  return `${type}-${createHash('sha256').update(key).digest('hex').slice(0, 16)}`;
}

export function shortHostname(name: string): string {
  return name.trim().toLowerCase().split('.')[0] ?? '';
}

class UnionFind {
  private parent = new Map<string, string>();
  find(x: string): string {
    let p = this.parent.get(x) ?? x;
    if (p !== x) {
      p = this.find(p);
      this.parent.set(x, p);
    }
    return p;
  }
  union(a: string, b: string): void {
    const ra = this.find(a);
    const rb = this.find(b);
    // The smaller key becomes the root, so the same inputs always give the same representative.
    // biome-ignore lint/complexity/useMathMinMax: these are string keys; Math.min would compare numbers
    if (ra !== rb) this.parent.set(ra < rb ? rb : ra, ra < rb ? ra : rb);
  }
}

function hostNames(o: Observation): string[] {
  return [...new Set([o.name, ...(o.identity?.hostnames ?? [])].map(shortHostname).filter(Boolean))];
}

/** Candidate pairs by rules 2 and 3 (host machines only). */
function ruleMatches(obs: Observation[]): [string, string][] {
  const hosts = obs.filter((o) => o.type === 'host');
  const pairs: [string, string][] = [];
  const byMachine = new Map<string, string[]>();
  for (const o of hosts) {
    const id = o.identity?.machineId?.trim().toLowerCase();
    if (id) byMachine.set(id, [...(byMachine.get(id) ?? []), observationKey(o)]);
  }
  for (const keys of byMachine.values()) for (const k of keys.slice(1)) pairs.push([keys[0]!, k]);

  // name -> source -> keys; only names unique within each source count.
  const byName = new Map<string, Map<string, string[]>>();
  for (const o of hosts) {
    for (const n of hostNames(o)) {
      const perSource = byName.get(n) ?? new Map<string, string[]>();
      perSource.set(o.source, [...(perSource.get(o.source) ?? []), observationKey(o)]);
      byName.set(n, perSource);
    }
  }
  for (const perSource of byName.values()) {
    if (perSource.size < 2 || [...perSource.values()].some((keys) => keys.length !== 1)) continue;
    const keys = [...perSource.values()].map((k) => k[0]!);
    for (const k of keys.slice(1)) pairs.push([keys[0]!, k]);
  }
  return pairs;
}

function exclusions(overrides: MergeOverride[]): { pairs: [string, string][]; set: Set<string> } {
  const pairs = overrides.filter((o) => o.kind === 'exclude').map((o): [string, string] => [o.a, o.b]);
  const set = new Set<string>();
  for (const [a, b] of pairs) set.add(`${a}|${b}`).add(`${b}|${a}`);
  return { pairs, set };
}

/** Groups observations into resources by the rules above. Pure: same input, same output. */
export function mergeObservations(obs: Observation[], overrides: MergeOverride[] = []): Resource[] {
  const uf = new UnionFind();
  const known = new Map(obs.map((o) => [observationKey(o), o]));
  const apart = exclusions(overrides);
  // Checked per exclusion, not per member pair: exclusions are few, merged groups can be large.
  const groupsApart = (a: string, b: string) => {
    const ra = uf.find(a);
    const rb = uf.find(b);
    for (const [x, y] of apart.pairs) {
      const rx = uf.find(x);
      const ry = uf.find(y);
      if ((rx === ra && ry === rb) || (rx === rb && ry === ra)) return true;
    }
    return false;
  };
  for (const o of overrides) if (o.kind === 'link' && known.has(o.a) && known.has(o.b)) uf.union(o.a, o.b);
  for (const [a, b] of ruleMatches(obs)) if (!apart.set.has(`${a}|${b}`) && !groupsApart(a, b)) uf.union(a, b);

  const groups = new Map<string, Observation[]>();
  for (const [key, o] of [...known.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const root = uf.find(key);
    const g = groups.get(root);
    if (g) g.push(o);
    else groups.set(root, [o]);
  }
  const idOf = new Map<string, string>();
  const resources = [...groups.values()].map((members) => build(members));
  for (const r of resources) for (const m of r.members) idOf.set(m, r.id);
  for (const r of resources) {
    const first = known.get(r.members[0]!);
    if (first?.parentSourceId) r.parentId = idOf.get(`${first.source}:${first.parentSourceId}`);
  }
  return resources;
}

const precedence: Record<string, number> = { hv: 0, bak: 1, mail: 2, orch: 3, ctr: 4, agent: 5 };

/** Most resources have one member: built without the sorting and set work a merge needs. */
function buildSingle(o: Observation): Resource {
  const key = observationKey(o);
  return {
    id: resourceId(o.type, o.stableKey ?? key),
    type: o.type,
    name: o.name,
    status: o.status,
    sources: [o.source],
    sourceStatus: { [o.source]: o.status },
    cluster: o.cluster,
    tags: o.tags && o.tags.length > 0 ? [...new Set(o.tags)].sort() : [],
    lastSeen: o.lastSeen,
    identity: {
      machineId: o.identity?.machineId,
      hostnames: o.identity?.hostnames ? [...new Set(o.identity.hostnames)] : [],
      clusterName: o.identity?.clusterName,
    },
    metrics: { ...o.metrics },
    members: [key],
    metricsTarget: o.metricsTarget,
  };
}

function build(members: Observation[]): Resource {
  if (members.length === 1) return buildSingle(members[0]!);
  const sorted = [...members].sort((a, b) => (precedence[a.source] ?? 9) - (precedence[b.source] ?? 9));
  const primary = sorted[0]!;
  const key = primary.stableKey ?? observationKey(primary);
  const sourceStatus: Resource['sourceStatus'] = {};
  for (const m of sorted) sourceStatus[m.source] = m.status;
  return {
    id: resourceId(primary.type, key),
    type: primary.type,
    name: primary.name,
    status: combineStatus(sorted.map((m) => m.status)),
    sources: [...new Set(sorted.map((m) => m.source))],
    sourceStatus,
    cluster: sorted.find((m) => m.cluster)?.cluster,
    tags: [...new Set(sorted.flatMap((m) => m.tags ?? []))].sort(),
    lastSeen: Math.max(...sorted.map((m) => m.lastSeen)),
    identity: {
      machineId: sorted.find((m) => m.identity?.machineId)?.identity?.machineId,
      hostnames: [...new Set(sorted.flatMap((m) => m.identity?.hostnames ?? []))],
      clusterName: sorted.find((m) => m.identity?.clusterName)?.identity?.clusterName,
    },
    // Agents measure inside the machine, so their numbers win over the hypervisor's outside view.
    metrics: Object.assign({}, ...sorted.map((m) => m.metrics ?? {})),
    members: sorted.map(observationKey),
    metricsTarget: sorted.find((m) => m.metricsTarget)?.metricsTarget,
  };
}

/** All sources agree: that status. Some see it online and some not: warning. Nothing known: unknown. */
export function combineStatus(statuses: ResourceStatus[]): ResourceStatus {
  const known = statuses.filter((s) => s !== 'unknown');
  if (known.length === 0) return 'unknown';
  if (known.every((s) => s === known[0])) return known[0]!;
  return 'warning';
}
