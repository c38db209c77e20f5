import type { RateClass } from '@svc/contract';
import type { Clock } from '@svc/platform';

export interface RateLimit {
  limit: number;
  windowMs: number;
}

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
}

interface Window {
  start: number;
  count: number;
}

/**
 * Fixed-window counters per rate class and client address, in memory (each svc instance counts its own).
 * Time comes from the injected clock so tests move it instead of sleeping.
 */
export function createRateLimiter(limits: Record<RateClass, RateLimit>, clock: Clock) {
  // One map per class keyed by the client address: no key string is built per request.
  const windows = new Map<RateClass, Map<string, Window>>();
  let lastSweep = clock.now();

  function sweep(now: number): void {
    if (now - lastSweep < 60_000) return;
    lastSweep = now;
    for (const [cls, byClient] of windows) {
      for (const [client, w] of byClient) if (now - w.start >= limits[cls].windowMs) byClient.delete(client);
    }
  }

  return {
    hit(cls: RateClass, client: string): RateDecision {
      const now = clock.now();
      sweep(now);
      const { limit, windowMs } = limits[cls];
      let byClient = windows.get(cls);
      if (!byClient) {
        byClient = new Map();
        windows.set(cls, byClient);
      }
      let w = byClient.get(client);
      if (!w || now - w.start >= windowMs) {
        w = { start: now, count: 0 };
        byClient.set(client, w);
      }
      w.count += 1;
      const resetSeconds = Math.max(1, Math.ceil((w.start + windowMs - now) / 1000));
      return { allowed: w.count <= limit, limit, remaining: Math.max(0, limit - w.count), resetSeconds };
    },
  };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;
