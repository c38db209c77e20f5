import type { Clock } from '@svc/platform';
import type { NodeKind, PollResult, PollSink } from '../collectors/index.js';
import { Collection, type CollectionKey, type CollectionRecords, collectionKeys } from './state.collections.js';
import { sameRecord } from './state.equal.js';
import { buildPayload, type StatePayload } from './state.payload.js';

/** Changed/added and removed resources since the previous emission; `seq` orders deltas after a snapshot. */
export interface StateDelta {
  seq: number;
  lastUpdate: number;
  upserts: { [K in CollectionKey]?: CollectionRecords[K][] };
  removed: { [K in CollectionKey]?: string[] };
  /** Instance connection flags that changed (same keys as the payload's `connectionHealth`). */
  connectionHealth?: Record<string, boolean>;
}

export type DeltaListener = (delta: StateDelta) => void;

export interface LiveStateOptions {
  clock: Clock;
  /** Consecutive failed polls after which an instance's resources are shown offline (default 3). */
  offlineAfter?: number;
}

interface InstanceInfo {
  kind: NodeKind;
  online: boolean;
  lastSuccess: number | undefined;
  failures: number;
}

type Upsert = { [K in CollectionKey]: Array<CollectionRecords[K]> };

/** The in-memory resource graph fed by the collectors; produces the full payload and cheap deltas. */
export class LiveState implements PollSink {
  private readonly cols = Object.fromEntries(collectionKeys.map((k) => [k, new Collection()])) as unknown as {
    [K in CollectionKey]: Collection<CollectionRecords[K]>;
  };
  private readonly instances = new Map<string, InstanceInfo>();
  private readonly listeners = new Set<DeltaListener>();
  private dirty = new Map<CollectionKey, Set<string>>();
  private removed = new Map<CollectionKey, Set<string>>();
  private dirtyHealth = new Set<string>();
  private seq = 0;
  private version = 0;
  private lastUpdate = 0;
  private cache: StatePayload | undefined;
  private readonly offlineAfter: number;

  constructor(private readonly opts: LiveStateOptions) {
    this.offlineAfter = opts.offlineAfter ?? 3;
  }

  /** Listen to deltas; returns the unsubscribe function. Listeners run synchronously after each change. */
  subscribe(listener: DeltaListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The full v5-shaped payload (cached until the next change) and the seq it corresponds to. */
  snapshot(): { seq: number; state: StatePayload } {
    this.cache ??= buildPayload(this.cols, this.lastUpdate, this.connectionHealth());
    return { seq: this.seq, state: this.cache };
  }

  get<K extends CollectionKey>(key: K): CollectionRecords[K][] {
    return this.cols[key].values();
  }

  applyPoll(instanceId: string, result: PollResult): void {
    this.markInstance(instanceId, result.kind, true, result.at);
    const next = toCollections(result);
    for (const key of collectionKeys) {
      const list = next[key];
      if (list) this.replace(instanceId, key, list);
    }
    this.lastUpdate = Math.max(this.lastUpdate, result.at);
    this.emit();
  }

  applyFailure(instanceId: string, kind: NodeKind, _error: unknown, consecutiveFailures: number): void {
    const offline = consecutiveFailures >= this.offlineAfter;
    this.markInstance(instanceId, kind, !offline, undefined, consecutiveFailures);
    for (const key of ['nodes', 'pbs', 'pmg'] as const) {
      this.patch(instanceId, key, (r) => ({
        ...r,
        status: offline ? 'offline' : 'warning',
        connectionHealth: offline ? 'error' : 'degraded',
      }));
    }
    if (offline) {
      for (const key of ['vms', 'containers'] as const)
        this.patch(instanceId, key, (r) => ({ ...r, status: 'unknown' }));
    }
    this.lastUpdate = Math.max(this.lastUpdate, this.opts.clock.now());
    this.emit();
  }

  removeInstance(instanceId: string): void {
    for (const key of collectionKeys) this.replace(instanceId, key, []);
    if (this.instances.delete(instanceId)) this.dirtyHealth.add(instanceId);
    this.emit();
  }

  /** Per-collection sizes (for stats and memory benchmarks). */
  counts(): Record<CollectionKey, number> {
    return Object.fromEntries(collectionKeys.map((k) => [k, this.cols[k].size])) as Record<CollectionKey, number>;
  }

  private replace<K extends CollectionKey>(instance: string, key: K, list: CollectionRecords[K][]): void {
    const col = this.cols[key];
    const stale = new Set(col.ids(instance));
    for (const rec of list) {
      stale.delete(rec.id);
      const old = col.byId.get(rec.id);
      if (old && sameRecord(old.rec, rec)) {
        old.rec = rec; // keep the fresh lastSeen without announcing a change
        continue;
      }
      col.set(instance, rec, ++this.version);
      this.mark(this.dirty, key, rec.id);
      this.removed.get(key)?.delete(rec.id);
    }
    for (const id of stale) {
      col.delete(id);
      this.mark(this.removed, key, id);
      this.dirty.get(key)?.delete(id);
    }
    if (list.length > 0 || stale.size > 0) this.cache = undefined;
  }

  private patch<K extends CollectionKey>(
    instance: string,
    key: K,
    fn: (r: CollectionRecords[K]) => CollectionRecords[K],
  ): void {
    const col = this.cols[key];
    const next = [...col.ids(instance)].map((id) => fn(col.byId.get(id)!.rec));
    this.replace(instance, key, next);
  }

  private markInstance(id: string, kind: NodeKind, online: boolean, at?: number, failures = 0): void {
    const prev = this.instances.get(id);
    if (!prev || prev.online !== online) this.dirtyHealth.add(id);
    this.instances.set(id, { kind, online, lastSuccess: at ?? prev?.lastSuccess, failures });
  }

  private mark(map: Map<CollectionKey, Set<string>>, key: CollectionKey, id: string): void {
    let s = map.get(key);
    if (!s) {
      s = new Set();
      map.set(key, s);
    }
    s.add(id);
  }

  private connectionHealth(): Record<string, boolean> {
    const out: Record<string, boolean> = {};
    for (const [id, info] of this.instances) out[`${info.kind}-${id}`] = info.online;
    return out;
  }

  private emit(): void {
    if (this.dirty.size === 0 && this.removed.size === 0 && this.dirtyHealth.size === 0) return;
    this.cache = undefined;
    const delta: StateDelta = { seq: ++this.seq, lastUpdate: this.lastUpdate, upserts: {}, removed: {} };
    const upserts = delta.upserts as Partial<Upsert>;
    for (const [key, ids] of this.dirty) {
      const col = this.cols[key];
      const recs = [...ids].flatMap((id) => col.byId.get(id)?.rec ?? []);
      if (recs.length > 0) (upserts as Record<string, unknown[]>)[key] = recs;
    }
    for (const [key, ids] of this.removed) if (ids.size > 0) delta.removed[key] = [...ids];
    if (this.dirtyHealth.size > 0) {
      const all = this.connectionHealth();
      delta.connectionHealth = Object.fromEntries(
        Object.entries(all).filter(([k]) => [...this.dirtyHealth].some((id) => k.endsWith(`-${id}`))),
      );
    }
    this.dirty = new Map();
    this.removed = new Map();
    this.dirtyHealth = new Set();
    for (const l of this.listeners) l(delta);
  }
}

/** Which collections a poll result replaces; absent slow data leaves those collections untouched. */
function toCollections(r: PollResult): Partial<Upsert> {
  if (r.kind === 'hv') {
    const out: Partial<Upsert> = { nodes: r.nodes, vms: r.vms, containers: r.containers, storage: r.storage };
    if (r.slow) {
      out.storageBackups = r.slow.backups;
      out.backupTasks = r.slow.backupTasks;
      out.guestSnapshots = r.slow.snapshots;
      out.physicalDisks = r.slow.disks;
    }
    return out;
  }
  if (r.kind === 'bak') return r.slow ? { pbs: [r.instance], pbsBackups: r.slow.backups } : { pbs: [r.instance] };
  return r.slow ? { pmg: [r.instance], pmgBackups: r.slow.backups } : { pmg: [r.instance] };
}
