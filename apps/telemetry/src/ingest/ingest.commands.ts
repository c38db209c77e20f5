import type { InstallReport, StatusUpdate } from '../contract.schemas.js';
import type { SqlTx } from '../db/index.js';
import {
  applyUpdate,
  type CountDeltas,
  insertReport,
  purgeOld,
  type ReportResult,
  reapStale,
  type UpdateResult,
} from './ingest.store.js';

/**
 * Every write the service makes, as plain data: a command can cross a thread boundary (structured clone),
 * which a closure cannot, so the SQLite writer can run in a worker thread with its own connection.
 */
export type WriteCommand =
  | { kind: 'report'; report: InstallReport; now: number }
  | { kind: 'update'; update: StatusUpdate; now: number }
  | { kind: 'reap'; cutoff: number; now: number; limit: number }
  | { kind: 'purge'; cutoff: number; limit: number };

export interface CommandResults {
  report: ReportResult;
  update: UpdateResult;
  reap: number;
  purge: number;
}

export type ResultOf<C extends WriteCommand> = CommandResults[C['kind']];

/** What the ingest service and the reaper write through: in-process or in a worker thread. */
export interface IngestWriter {
  /** Resolves once the command's transaction is committed (durably, as configured). */
  submit<C extends WriteCommand>(cmd: C): Promise<ResultOf<C>>;
  /** Resolves when everything submitted so far is committed (shutdown, tests). */
  drained(): Promise<void>;
  /**
   * Resolves once every write answered so far is visible to the statistics. The SQLite journal writer keeps
   * the running totals of its open transaction in memory until it commits; readers call this first, so a
   * statistic always includes every report already acknowledged.
   */
  visible(): Promise<void>;
  /** Stops accepting work after the queue drains and releases the writer's resources. */
  close(): Promise<void>;
}

export function runCommand(tx: SqlTx, deltas: CountDeltas, cmd: WriteCommand): Promise<unknown> {
  switch (cmd.kind) {
    case 'report':
      return insertReport(tx, deltas, cmd.report, cmd.now);
    case 'update':
      return applyUpdate(tx, deltas, cmd.update, cmd.now);
    case 'reap':
      return reapStale(tx, deltas, cmd.cutoff, cmd.now, cmd.limit);
    case 'purge':
      return purgeOld(tx, deltas, cmd.cutoff, cmd.limit);
  }
}
