/**
 * Keeps a bounded window of sends in flight: claims more rows whenever fewer than `lowWater` messages are
 * waiting or in flight, so the next claim overlaps the sends of the previous one, and writes outcomes in
 * batches instead of one transaction per claim. Outcomes not yet written when the process dies leave their
 * rows in `sending`, which the next start sends again with the same event id (at-least-once).
 */
export interface PumpOptions<M, R> {
  concurrency: number;
  lowWater: number;
  /** Messages of up to `limit` newly claimed rows; empty when nothing is due. */
  claim(limit: number): Promise<M[]>;
  claimSize: number;
  send(m: M): Promise<R>;
  /** Durably records settled sends. */
  record(results: R[]): Promise<void>;
  /** Puts claimed but unsent messages back (on abort). */
  release(ms: M[]): Promise<void>;
  /** Settled sends are written once this many are waiting, or when the window empties. */
  flushAt: number;
  /** ...or once the oldest waiting one is this old (ms). */
  flushAfterMs: number;
  now(): number;
  signal?: AbortSignal;
}

export async function pump<M, R>(o: PumpOptions<M, R>): Promise<number> {
  const ready: M[] = [];
  let settled: R[] = [];
  let oldest = 0;
  let inflight = 0;
  let sent = 0;
  let exhausted = false;
  let failure: unknown;
  let wake: (() => void) | undefined;

  const start = (m: M) => {
    inflight++;
    o.send(m)
      .then(
        (r) => {
          if (settled.length === 0) oldest = o.now();
          settled.push(r);
        },
        (err: unknown) => {
          failure ??= err;
        },
      )
      .finally(() => {
        inflight--;
        sent++;
        const w = wake;
        wake = undefined;
        w?.();
      });
  };
  const flush = async () => {
    if (settled.length === 0) return;
    const batch = settled;
    settled = [];
    await o.record(batch);
  };

  try {
    for (;;) {
      if (failure) throw failure;
      const aborted = o.signal?.aborted === true;
      if (!aborted && !exhausted && ready.length + inflight < o.lowWater) {
        const more = await o.claim(o.claimSize);
        if (more.length === 0) exhausted = true;
        else ready.push(...more);
      }
      while (!aborted && inflight < o.concurrency && ready.length > 0) start(ready.shift() as M);
      const idle = inflight === 0 && (aborted || (exhausted && ready.length === 0));
      if (settled.length >= o.flushAt || (settled.length > 0 && (idle || o.now() - oldest >= o.flushAfterMs)))
        await flush();
      if (idle) break;
      // Claim again at once while below the low-water mark; otherwise wait for a send to settle.
      if (aborted || exhausted || ready.length + inflight >= o.lowWater) {
        if (inflight > 0) await new Promise<void>((r) => (wake = r));
      }
    }
  } finally {
    if (inflight === 0) await flush();
    if (ready.length > 0) await o.release(ready.splice(0));
  }
  if (failure) throw failure;
  o.signal?.throwIfAborted();
  return sent;
}
