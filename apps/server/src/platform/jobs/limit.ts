/** A counting semaphore: bounds how much long work (polls, fan-out requests) runs at once. */
export interface Limiter {
  run<T>(fn: () => Promise<T>): Promise<T>;
  readonly active: number;
  readonly waiting: number;
}

export function createLimiter(concurrency: number): Limiter {
  if (!(concurrency >= 1)) throw new RangeError('concurrency must be at least 1');
  let active = 0;
  const queue: Array<() => void> = [];
  const release = () => {
    active--;
    const next = queue.shift();
    if (next) next();
  };
  return {
    get active() {
      return active;
    },
    get waiting() {
      return queue.length;
    },
    async run<T>(fn: () => Promise<T>): Promise<T> {
      if (active >= concurrency) await new Promise<void>((r) => queue.push(r));
      active++;
      try {
        return await fn();
      } finally {
        release();
      }
    },
  };
}

/** Map over items with at most `concurrency` in flight; stops starting new items once `signal` aborts. */
export async function mapLimit<T, R>(
  items: readonly T[],
  concurrency: number,
  fn: (item: T, index: number) => Promise<R>,
  signal?: AbortSignal,
): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      signal?.throwIfAborted();
      const i = next++;
      out[i] = await fn(items[i] as T, i);
    }
  };
  const n = Math.max(1, Math.min(concurrency, items.length));
  await Promise.all(Array.from({ length: n }, worker));
  return out;
}
