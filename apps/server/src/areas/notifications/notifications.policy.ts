/** How hard and how fast the pipeline delivers. The alert engine's settings feed it through the area. */
export interface DeliveryPolicy {
  /** Attempts per row before the dead-letter queue. */
  maxAttempts: number;
  baseBackoffMs: number;
  maxBackoffMs: number;
  /** Firing notices of one channel arriving within this window go out as one message; 0 = off. */
  groupWindowMs: number;
  /** Sends per alert and channel in a rolling hour; later ones wait (never dropped). 0 = no cap. */
  maxPerHour: number;
  /** Requests per target and window; excess waits for a free slot (never dropped). limit 0 = none. */
  targetRate: { limit: number; windowMs: number };
  /** Rows claimed per round and messages in flight. */
  batchSize: number;
  concurrency: number;
}

export const defaultPolicy: DeliveryPolicy = {
  maxAttempts: 6,
  baseBackoffMs: 2_000,
  maxBackoffMs: 5 * 60_000,
  groupWindowMs: 0,
  maxPerHour: 0,
  targetRate: { limit: 0, windowMs: 1_000 },
  batchSize: 1000,
  concurrency: 128,
};

const HOUR = 3_600_000;

/** Exponential backoff with ±20% jitter so a fleet of retries does not hit a recovering receiver at once. */
export function backoffMs(p: DeliveryPolicy, attempt: number, random: () => number): number {
  const raw = Math.min(p.maxBackoffMs, p.baseBackoffMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(raw * (0.8 + 0.4 * random()));
}

/** Sliding-window counters: when may the next send to a key go, given a limit per window. */
export class SlidingWindows {
  private readonly seen = new Map<string, number[]>();

  /** The earliest time a send to `key` is allowed; records it when that is now. */
  take(key: string, limit: number, windowMs: number, now: number): number {
    if (limit <= 0) return now;
    const times = (this.seen.get(key) ?? []).filter((t) => t > now - windowMs);
    if (times.length >= limit) {
      this.seen.set(key, times);
      return times[times.length - limit]! + windowMs;
    }
    times.push(now);
    this.seen.set(key, times);
    return now;
  }

  prune(now: number, windowMs = HOUR): void {
    for (const [k, ts] of this.seen) if (!ts.some((t) => t > now - windowMs)) this.seen.delete(k);
  }
}

export const HOUR_MS = HOUR;
