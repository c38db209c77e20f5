/** Per-second rates from cumulative counters (netin, diskread, ...) between two polls of the same resource. */
export class RateTracker {
  private prev = new Map<string, { at: number; values: number[] }>();
  private seen = new Set<string>();

  /** Rates for `values` since the last sample of `id` (0 on the first sample or after a counter reset). */
  rates(id: string, at: number, values: number[]): number[] {
    this.seen.add(id);
    const last = this.prev.get(id);
    this.prev.set(id, { at, values });
    if (!last || at <= last.at) return values.map(() => 0);
    const secs = (at - last.at) / 1000;
    return values.map((v, i) => {
      const d = v - (last.values[i] ?? 0);
      return d > 0 ? Math.round(d / secs) : 0;
    });
  }

  /** Forget resources not sampled since the previous sweep, so removed guests do not leak memory. */
  sweep(): void {
    for (const id of this.prev.keys()) if (!this.seen.has(id)) this.prev.delete(id);
    this.seen.clear();
  }

  get size(): number {
    return this.prev.size;
  }
}
