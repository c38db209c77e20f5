import type { SqlRunner, SqlTx } from '../db/index.js';
import { type IngestWriter, type ResultOf, runCommand, type WriteCommand } from './ingest.commands.js';
import { CountDeltas } from './ingest.store.js';

export type WriteOp<T> = (tx: SqlTx, deltas: CountDeltas) => Promise<T>;

export type Settled = { ok: true; value: unknown } | { ok: false; error: unknown };

interface Pending {
  op: WriteOp<unknown>;
  resolve(v: unknown): void;
  reject(e: unknown): void;
}

export const MAX_BATCH = 512;

/**
 * Runs `items` in one attempt (all or nothing). One bad write must not fail its neighbours: if the attempt
 * fails, each item is tried alone, so only the culprit sees the error.
 */
export async function wholeOrEach<T>(items: T[], attempt: (items: T[]) => Promise<unknown[]>): Promise<Settled[]> {
  try {
    return (await attempt(items)).map((value) => ({ ok: true, value }));
  } catch (error) {
    if (items.length === 1) return [{ ok: false, error }];
    const out: Settled[] = [];
    for (const item of items) out.push(...(await wholeOrEach([item], attempt)));
    return out;
  }
}

/** Commits `ops` in one transaction (one fsync) with their running totals. */
export function commitBatch(runner: SqlRunner, ops: WriteOp<unknown>[]): Promise<Settled[]> {
  return wholeOrEach(ops, (some) =>
    runner.transaction(async (tx) => {
      const deltas = new CountDeltas();
      const out: unknown[] = [];
      for (const op of some) out.push(await op(tx, deltas));
      await deltas.flush(tx);
      return out;
    }),
  );
}

/**
 * Group commit on the calling thread (PostgreSQL, and in-memory SQLite in tests): every write waits for the
 * commit of the batch it joined, so a 201 always means the row is stored, while concurrent requests share one
 * transaction. Writes never overlap.
 */
export class BatchWriter implements IngestWriter {
  private queue: Pending[] = [];
  private running = false;
  private idle: Promise<void> = Promise.resolve();

  constructor(private readonly runner: SqlRunner) {}

  submit<C extends WriteCommand>(cmd: C): Promise<ResultOf<C>> {
    return this.write((tx, deltas) => runCommand(tx, deltas, cmd)) as Promise<ResultOf<C>>;
  }

  write<T>(op: WriteOp<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ op, resolve: resolve as (v: unknown) => void, reject });
      if (!this.running) this.start();
    });
  }

  drained(): Promise<void> {
    return this.idle;
  }

  /** Each batch is committed before it is answered. */
  visible(): Promise<void> {
    return Promise.resolve();
  }

  /** The connection belongs to the caller, who closes it after this. */
  close(): Promise<void> {
    return this.drained();
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
      const settled = await commitBatch(
        this.runner,
        batch.map((p) => p.op),
      );
      for (const [i, s] of settled.entries()) {
        if (s.ok) batch[i]!.resolve(s.value);
        else batch[i]!.reject(s.error);
      }
    }
    this.running = false;
  }
}
