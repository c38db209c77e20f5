import type { SqlRunner, SqlTx } from '../db/index.js';
import { CountDeltas } from './ingest.store.js';

export type WriteOp<T> = (tx: SqlTx, deltas: CountDeltas) => Promise<T>;

interface Pending {
  op: WriteOp<unknown>;
  resolve(v: unknown): void;
  reject(e: unknown): void;
}

const MAX_BATCH = 512;

/**
 * Group commit: every write waits for the commit of the batch it joined, so a 201 always means the row is
 * on disk, while concurrent requests share one transaction (and one fsync). Writes never overlap.
 */
export class BatchWriter {
  private queue: Pending[] = [];
  private running = false;
  private idle: Promise<void> = Promise.resolve();

  constructor(private readonly runner: SqlRunner) {}

  write<T>(op: WriteOp<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ op, resolve: resolve as (v: unknown) => void, reject });
      if (!this.running) this.start();
    });
  }

  /** Resolves when everything queued so far is committed (shutdown, tests). */
  drained(): Promise<void> {
    return this.idle;
  }

  private start(): void {
    this.running = true;
    this.idle = new Promise<void>((done) => {
      // Yield once so requests arriving in the same event-loop turn join this batch.
      setImmediate(() => void this.loop().finally(done));
    });
  }

  private async loop(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, MAX_BATCH);
      try {
        const results = await this.commit(batch);
        for (const [i, p] of batch.entries()) p.resolve(results[i]);
      } catch (err) {
        if (batch.length === 1) batch[0]!.reject(err);
        // One bad write must not fail its neighbours: retry each alone so only the culprit sees the error.
        else for (const p of batch) await this.commit([p]).then((r) => p.resolve(r[0]), p.reject);
      }
    }
    this.running = false;
  }

  private commit(batch: Pending[]): Promise<unknown[]> {
    return this.runner.transaction(async (tx) => {
      const deltas = new CountDeltas();
      const out: unknown[] = [];
      for (const p of batch) out.push(await p.op(tx, deltas));
      await deltas.flush(tx);
      return out;
    });
  }
}
