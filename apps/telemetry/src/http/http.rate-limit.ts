import type { Clock } from '@svc/platform';

export interface LimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the current window ends. */
  resetSeconds: number;
}

const WINDOW_MS = 60_000;

/**
 * Fixed one-minute windows per client address. Addresses live only in this map, only for the current
 * window (it is dropped when the window turns), and are never written to disk or logs.
 */
export class FixedWindowLimiter {
  private windowStart = 0;
  private hits = new Map<string, number>();

  constructor(
    private readonly perMinute: number,
    private readonly clock: Clock,
  ) {}

  hit(key: string): LimitDecision {
    const now = this.clock.now();
    const start = now - (now % WINDOW_MS);
    if (start !== this.windowStart) {
      this.windowStart = start;
      this.hits = new Map();
    }
    const used = (this.hits.get(key) ?? 0) + 1;
    this.hits.set(key, used);
    return {
      allowed: used <= this.perMinute,
      limit: this.perMinute,
      remaining: Math.max(0, this.perMinute - used),
      resetSeconds: Math.ceil((start + WINDOW_MS - now) / 1000),
    };
  }
}
