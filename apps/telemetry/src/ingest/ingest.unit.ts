import { join } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import type { SqlRunner } from '../db/index.js';
import { type IngestWriter, type ResultOf, runCommand, type WriteCommand } from './ingest.commands.js';
import { IngestJournal, lockJournal } from './ingest.journal.js';
import { CountDeltas } from './ingest.store.js';
import { MAX_BATCH, type Settled, wholeOrEach } from './ingest.writer.js';

/** How long one transaction (a unit) stays open at most, and for how many writes. */
const UNIT_MAX_MS = 1000;
const UNIT_MAX_WRITES = 50_000;
/** A unit with no new writes for this long is committed, so under light load data reaches the file promptly. */
const UNIT_IDLE_MS = 50;

export const JOURNAL_FILE = 'telemetry.journal';
export const LOCK_FILE = 'telemetry.lock';

/**
 * Writes to a file-backed SQLite database through an open transaction (a unit) and the ingest journal
 * (ingest.journal.ts). Each batch of concurrent writes is applied inside the unit, appended to the journal,
 * and answered once an fsync of the journal that started after it finishes; while that fsync runs on libuv's
 * pool, the next batch is applied (group commit). The unit commits about once a second, then the journal is
 * emptied. At start, journal frames of a unit that never committed are applied again.
 *
 * Reads on the same connection see the unit's writes, so a statistic includes every acknowledged write.
 * Writes of a batch whose fsync has not finished yet are visible to reads a moment early; if that fsync fails
 * the process stops (see `fatal`) and the journal decides what is kept.
 */
export class JournalWriter implements IngestWriter {
  private queue: Pending[] = [];
  private drainScheduled = false;
  /** Applied and journaled, waiting for an fsync to start; and those the running fsync covers. */
  private unsynced: Applied[] = [];
  private syncing: Applied[] | undefined;
  private unit: { id: number; opened: number; writes: number } | undefined;
  /** The unit's changes to the running totals, written when it commits or before a read. */
  private readonly deltas = new CountDeltas();
  private lastUnit = 0;
  private idleTimer: NodeJS.Timeout | undefined;
  private idleWaiters: (() => void)[] = [];
  private closing = false;
  private failure: unknown;
  /**
   * The end of the last piece of work on the unit. Batches, commits and totals flushes run one after another:
   * the runner's promises would otherwise let a flush slip into a batch's savepoint and be rolled back with it.
   */
  private turn: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly db: BetterSqlite3.Database,
    private readonly runner: SqlRunner,
    private readonly journal: IngestJournal,
    private readonly durable: boolean,
    private readonly fatal: (err: unknown) => void,
    private readonly unlock: () => void,
  ) {}

  /**
   * Opens the journal in `dataDir` and applies what an unclean stop left in it. `replayed` counts those writes.
   * `fatal` is called if the journal cannot be written or synced: answers could no longer be trusted.
   */
  static async open(opts: {
    db: BetterSqlite3.Database;
    runner: SqlRunner;
    dataDir: string;
    durableWrites: boolean;
    fatal: (err: unknown) => void;
  }): Promise<{ writer: JournalWriter; replayed: number }> {
    const unlock = lockJournal(join(opts.dataDir, LOCK_FILE));
    let journal: IngestJournal | undefined;
    try {
      journal = IngestJournal.open(join(opts.dataDir, JOURNAL_FILE));
      const writer = new JournalWriter(opts.db, opts.runner, journal, opts.durableWrites, opts.fatal, unlock);
      return { writer, replayed: await writer.recover() };
    } catch (err) {
      journal?.close();
      unlock();
      throw err;
    }
  }

  submit<C extends WriteCommand>(cmd: C): Promise<ResultOf<C>> {
    if (this.closing) return Promise.reject(new Error('The telemetry writer is shutting down.'));
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.queue.push({ cmd, resolve: resolve as (v: unknown) => void, reject });
      if (!this.drainScheduled) {
        this.drainScheduled = true;
        // Writes arriving in the same event-loop turn share one batch.
        setImmediate(() => void this.drain());
      }
    });
  }

  drained(): Promise<void> {
    if (this.idle) return Promise.resolve();
    return new Promise((done) => this.idleWaiters.push(done));
  }

  /** Reads use this connection, which sees the open unit; its running totals are written first. */
  async visible(): Promise<void> {
    if (this.deltas.empty) return;
    await this.exclusive(() => this.deltas.flush(this.runner));
  }

  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.turn.then(work);
    this.turn = run.catch(() => undefined);
    return run;
  }

  async close(): Promise<void> {
    await this.drained();
    this.closing = true;
    await this.exclusive(() => this.commitUnit());
    this.journal.close();
    this.unlock();
  }

  private get idle(): boolean {
    return this.queue.length === 0 && !this.drainScheduled && this.unsynced.length === 0 && !this.syncing;
  }

  private async drain(): Promise<void> {
    this.drainScheduled = false;
    clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    let batch: Pending[] = [];
    try {
      while (this.queue.length > 0) {
        batch = this.queue.splice(0, MAX_BATCH);
        const settled = await this.exclusive(() => this.apply(batch));
        this.unsynced.push({ batch, settled });
        batch = [];
        if (this.unitDue) await this.exclusive(() => this.commitUnit());
        else if (this.durable) this.startSync();
        else this.answer(this.unsynced.splice(0));
      }
    } catch (err) {
      for (const p of batch) p.reject(err);
      this.fail(err);
      return;
    }
    this.armIdle();
    this.notifyIdle();
  }

  /** Applies one batch inside the unit (opening one if needed) and journals the writes that succeeded. */
  private async apply(batch: Pending[]): Promise<Settled[]> {
    if (!this.unit) {
      this.db.exec('BEGIN IMMEDIATE');
      const id = this.lastUnit + 1;
      this.recordUnit(id);
      this.unit = { id, opened: Date.now(), writes: 0 };
    }
    const settled = await wholeOrEach(
      batch.map((p) => p.cmd),
      (cmds) => this.savepoint(cmds),
    );
    // Some errors (disk full, I/O) make SQLite roll back the whole transaction, answered writes included:
    // only a restart, which applies the journal again, can restore them.
    if (!this.db.inTransaction) {
      const cause = settled.find((s) => !s.ok);
      throw new Error(
        `SQLite rolled back the open transaction${cause && !cause.ok ? ` (${(cause.error as Error).message})` : ''}.`,
      );
    }
    const journaled = batch.filter((_, i) => settled[i]!.ok).map((p) => p.cmd);
    if (journaled.length > 0) this.journal.append(this.unit.id, JSON.stringify(journaled));
    this.unit.writes += journaled.length;
    return settled;
  }

  /** Runs `cmds` in a savepoint of the unit: all of them, or (after rolling back to it, and throwing) none. */
  private async savepoint(cmds: WriteCommand[]): Promise<unknown[]> {
    if (!this.db.inTransaction) throw new Error('The open transaction is gone.');
    this.db.exec('SAVEPOINT batch');
    try {
      const deltas = new CountDeltas();
      const values: unknown[] = [];
      for (const cmd of cmds) values.push(await runCommand(this.runner, deltas, cmd));
      this.db.exec('RELEASE batch');
      this.deltas.absorb(deltas);
      return values;
    } catch (error) {
      if (this.db.inTransaction) {
        this.db.exec('ROLLBACK TO batch');
        this.db.exec('RELEASE batch');
      }
      throw error;
    }
  }

  private get unitDue(): boolean {
    return (
      this.unit !== undefined && (Date.now() - this.unit.opened >= UNIT_MAX_MS || this.unit.writes >= UNIT_MAX_WRITES)
    );
  }

  private startSync(): void {
    if (this.syncing || this.unsynced.length === 0) return;
    const covered = this.unsynced;
    this.syncing = covered;
    this.unsynced = [];
    this.journal.sync((err) => {
      this.syncing = undefined;
      // After a failed fsync nobody knows what is on disk: stop, and let the journal decide at the next start.
      if (err) return this.fail(err);
      this.answer(covered);
      this.startSync();
      this.armIdle();
      this.notifyIdle();
    });
  }

  /** Commits the unit (fsync'd with durable writes): everything applied is then in the database file. */
  private async commitUnit(): Promise<void> {
    clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    if (!this.unit) return;
    await this.deltas.flush(this.runner);
    this.db.exec('COMMIT');
    this.lastUnit = this.unit.id;
    this.unit = undefined;
    this.journal.reset();
    const all = this.syncing ? [...this.syncing, ...this.unsynced] : this.unsynced;
    // A running fsync has nothing left to answer when it finishes.
    if (this.syncing) this.syncing.length = 0;
    this.unsynced = [];
    this.answer(all);
  }

  private armIdle(): void {
    if (!this.unit || this.idleTimer || this.closing) return;
    this.idleTimer = setTimeout(() => {
      this.idleTimer = undefined;
      if (this.idle) this.exclusive(() => this.commitUnit()).catch((err: unknown) => this.fail(err));
      else this.armIdle();
    }, UNIT_IDLE_MS);
  }

  private answer(applied: Applied[]): void {
    for (const { batch, settled } of applied) {
      for (const [i, p] of batch.entries()) {
        const s = settled[i]!;
        if (s.ok) p.resolve(s.value);
        else p.reject(s.error);
      }
    }
  }

  private notifyIdle(): void {
    if (this.idle) for (const done of this.idleWaiters.splice(0)) done();
  }

  /** The journal or the database failed under a write: nothing unanswered can be answered any more. */
  private fail(err: unknown): void {
    const first = this.failure === undefined;
    this.failure ??= err;
    clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    const pending = [...(this.syncing ?? []), ...this.unsynced];
    this.syncing = undefined;
    this.unsynced = [];
    for (const { batch } of pending) for (const p of batch) p.reject(err);
    for (const p of this.queue.splice(0)) p.reject(err);
    this.notifyIdle();
    if (first) this.fatal(err);
  }

  /** Stores, inside the open transaction, the number of the unit it is: committed together with its writes. */
  private recordUnit(id: number): void {
    this.db.prepare('update journal_state set unit = ? where id = 1').run(id);
  }

  /** Applies the journal's writes of a unit that never committed (an unclean stop); returns how many. */
  private async recover(): Promise<number> {
    const row = this.db.prepare('select unit from journal_state where id = 1').get() as { unit: number } | undefined;
    this.lastUnit = Number(row?.unit ?? 0);
    const frames = this.journal.frames().filter((f) => f.unit > this.lastUnit);
    let n = 0;
    if (frames.length > 0) {
      const unit = frames[frames.length - 1]!.unit;
      this.db.exec('BEGIN IMMEDIATE');
      try {
        for (const f of frames) {
          const deltas = new CountDeltas();
          for (const cmd of JSON.parse(f.payload) as WriteCommand[]) {
            await runCommand(this.runner, deltas, cmd);
            n++;
          }
          await deltas.flush(this.runner);
        }
        this.recordUnit(unit);
        this.db.exec('COMMIT');
      } catch (err) {
        if (this.db.inTransaction) this.db.exec('ROLLBACK');
        throw new Error(
          `Could not apply the writes saved in ${this.journal.path} after an unclean stop: ${(err as Error).message}. ` +
            'Move that file aside to start without them.',
        );
      }
      this.lastUnit = unit;
    }
    this.journal.reset();
    return n;
  }
}

interface Pending {
  cmd: WriteCommand;
  resolve(v: unknown): void;
  reject(e: unknown): void;
}

interface Applied {
  batch: Pending[];
  settled: Settled[];
}
