import type { LiveState } from '../../state/index.js';
import { observeLiveState } from './resources.adapter.js';
import { mergeObservations } from './resources.identity.js';
import type { MergeOverride, Observation, Resource, ResourceType } from './resources.model.js';
import { sortByName } from './resources.query.js';

/** Metadata kinds that can tag a resource of each type (a host may be an hv node or a ctr host). */
export type TagKind = 'host' | 'guest' | 'ctr' | 'ctrHost';
const tagKinds: Partial<Record<ResourceType, TagKind[]>> = {
  host: ['host', 'ctrHost'],
  vm: ['guest'],
  lxc: ['guest'],
  container: ['ctr'],
};

export interface ViewInputs {
  state: LiveState;
  /** Extra observations (agent, ctr, orch adapters plug in here). */
  extra?: () => Observation[];
  overrides: () => readonly MergeOverride[];
  tagsFor: (kind: TagKind, id: string) => readonly string[] | undefined;
}

export interface Snapshot {
  all: readonly Resource[];
  byId: ReadonlyMap<string, Resource>;
  children: ReadonlyMap<string, Resource[]>;
  observations: ReadonlyMap<string, Observation>;
  lastUpdate: number;
  /** `all` in name order, sorted on first use per snapshot. */
  byName(): readonly Resource[];
}

/**
 * The merged resources, cached. A state delta, an override or a metadata change marks the view stale; the
 * next read rebuilds it once, so a burst of deltas costs one merge and requests never merge themselves.
 */
export class ResourceView {
  private snap: Snapshot | undefined;
  private readonly unsubscribe: () => void;
  private lastUpdate = 0;

  constructor(private readonly inputs: ViewInputs) {
    this.unsubscribe = inputs.state.subscribe((d) => {
      this.lastUpdate = d.lastUpdate;
      this.invalidate();
    });
  }

  invalidate(): void {
    this.snap = undefined;
  }

  close(): void {
    this.unsubscribe();
  }

  get(): Snapshot {
    this.snap ??= this.build();
    return this.snap;
  }

  private build(): Snapshot {
    const obs = [...observeLiveState(this.inputs.state), ...(this.inputs.extra?.() ?? [])];
    const observations = new Map(obs.map((o) => [`${o.source}:${o.sourceId}`, o]));
    const all = mergeObservations(obs, [...this.inputs.overrides()]);
    const byId = new Map<string, Resource>();
    const children = new Map<string, Resource[]>();
    // Deltas before this view subscribed are not seen, so the newest sighting also counts as an update.
    let lastUpdate = this.lastUpdate;
    for (const r of all) {
      if (r.lastSeen > lastUpdate) lastUpdate = r.lastSeen;
      this.addMetadataTags(r, observations);
      byId.set(r.id, r);
      if (!r.parentId) continue;
      const list = children.get(r.parentId);
      if (list) list.push(r);
      else children.set(r.parentId, [r]);
    }
    let byName: Resource[] | undefined;
    return { all, byId, children, observations, lastUpdate, byName: () => (byName ??= sortByName(all)) };
  }

  /** Metadata may be keyed by the unified id or by any member's live-state id. */
  private addMetadataTags(r: Resource, observations: ReadonlyMap<string, Observation>): void {
    const kinds = tagKinds[r.type];
    if (!kinds) return;
    const ids = [r.id, ...r.members.flatMap((m) => observations.get(m)?.aliases ?? [])];
    let extra: string[] | undefined;
    for (const kind of kinds)
      for (const id of ids) {
        const t = this.inputs.tagsFor(kind, id);
        if (t && t.length > 0) extra = [...(extra ?? []), ...t];
      }
    if (extra) r.tags = [...new Set([...r.tags, ...extra])].sort();
  }
}
