import type { CollectionKey, StateDelta } from '../state/index.js';
import type { DeltaData } from './realtime.messages.js';

type Rec = { id: string };

/**
 * Merges the LiveState deltas of one flush window into one: per resource the latest record wins, an upsert
 * cancels an earlier removal and a removal an earlier upsert. Memory is bounded by the number of distinct
 * resources touched in the window, never by the number of polls.
 */
export class DeltaCoalescer {
  private upserts = new Map<CollectionKey, Map<string, Rec>>();
  private removed = new Map<CollectionKey, Set<string>>();
  private health: Record<string, boolean> | undefined;
  private prevSeq: number;
  private seq: number;
  private lastUpdate = 0;

  constructor(startSeq: number) {
    this.prevSeq = startSeq;
    this.seq = startSeq;
  }

  get pending(): boolean {
    return this.seq !== this.prevSeq;
  }

  add(d: StateDelta): void {
    for (const [key, recs] of Object.entries(d.upserts) as [CollectionKey, Rec[]][]) {
      const m = this.upserts.get(key) ?? new Map<string, Rec>();
      this.upserts.set(key, m);
      const gone = this.removed.get(key);
      for (const r of recs) {
        m.set(r.id, r);
        gone?.delete(r.id);
      }
    }
    for (const [key, ids] of Object.entries(d.removed) as [CollectionKey, string[]][]) {
      const s = this.removed.get(key) ?? new Set<string>();
      this.removed.set(key, s);
      const ups = this.upserts.get(key);
      for (const id of ids) {
        s.add(id);
        ups?.delete(id);
      }
    }
    if (d.connectionHealth) this.health = { ...this.health, ...d.connectionHealth };
    this.seq = d.seq;
    this.lastUpdate = Math.max(this.lastUpdate, d.lastUpdate);
  }

  /** The merged delta since the last take (undefined when nothing changed), and the seq it reaches. */
  take(): { seq: number; data: DeltaData } | undefined {
    if (!this.pending) return undefined;
    const data: DeltaData = { prevSeq: this.prevSeq, lastUpdate: this.lastUpdate, upserts: {}, removed: {} };
    const ups = data.upserts as Record<string, Rec[]>;
    for (const [key, m] of this.upserts) if (m.size > 0) ups[key] = [...m.values()];
    for (const [key, s] of this.removed) if (s.size > 0) data.removed[key] = [...s];
    if (this.health) data.connectionHealth = this.health;
    const seq = this.seq;
    this.upserts = new Map();
    this.removed = new Map();
    this.health = undefined;
    this.prevSeq = seq;
    return { seq, data };
  }
}
