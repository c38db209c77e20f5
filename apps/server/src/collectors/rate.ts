interface Sample {
  at: number;
  values: readonly number[];
  /** Sweep generation in which the resource was last sampled. */
  gen: number;
}

/** Per-second rates from cumulative counters (netin, diskread, ...) between two polls of the same resource. */
export class RateTracker {
  private prev = new Map<string, Sample>();
  private gen = 0;

  /** Rates for `values` since the last sample of `id` (0 on the first sample or after a counter reset). */
  rates(id: string, at: number, values: readonly number[]): number[] {
    const out = new Array<number>(values.length).fill(0);
    const last = this.prev.get(id);
    if (!last) {
      this.prev.set(id, { at, values, gen: this.gen });
      return out;
    }
    if (at > last.at) {
      const secs = (at - last.at) / 1000;
      for (let i = 0; i < values.length; i++) {
        const d = values[i]! - (last.values[i] ?? 0);
        if (d > 0) out[i] = Math.round(d / secs);
      }
    }
    // The sample is updated in place: one object per resource for its lifetime, not one per poll.
    last.at = at;
    last.values = values;
    last.gen = this.gen;
    return out;
  }

  /** Forget resources not sampled since the previous sweep, so removed guests do not leak memory. */
  sweep(): void {
    for (const [id, s] of this.prev) if (s.gen !== this.gen) this.prev.delete(id);
    this.gen++;
  }

  get size(): number {
    return this.prev.size;
  }
}
