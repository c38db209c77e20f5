import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readReport, readUpdate } from '../contract.readers.js';
import { migrateTelemetryDatabase, openTelemetryDatabase, runnerFor, type TelemetryDb } from '../db/index.js';
import { createStatsService } from '../stats/stats.service.js';
import { createStatsStore } from '../stats/stats.store.js';
import { report, uuid } from '../testing/dialects.js';
import type { WriteCommand } from './ingest.commands.js';
import { IngestJournal } from './ingest.journal.js';
import { JOURNAL_FILE, JournalWriter } from './ingest.unit.js';

const NOW = Date.UTC(2026, 10, 22, 12);

const reportCmd = (n: number, extra: Record<string, unknown> = {}): WriteCommand => ({
  kind: 'report',
  report: readReport(report(n, extra)),
  now: NOW,
});
const updateCmd = (n: number, status: string): WriteCommand => ({
  kind: 'update',
  update: readUpdate({ random_id: uuid(n), status, error: status === 'failed' ? 'disk full' : '' }),
  now: NOW + 1,
});

/** The file-backed writer: batches in an open transaction, answered after the journal's fsync. */
describe('journal writer (file SQLite)', () => {
  let dir: string;
  let handle: TelemetryDb | undefined;

  async function open() {
    handle = openTelemetryDatabase({ dataDir: dir, databaseUrl: undefined, durableWrites: true });
    await migrateTelemetryDatabase(handle);
    const runner = runnerFor(handle);
    // Per writer: one abandoned by a simulated crash may still fail later, on its closed connection.
    const fatal: unknown[] = [];
    const opened = await JournalWriter.open({
      db: handle.sqlite!,
      runner,
      dataDir: dir,
      durableWrites: true,
      fatal: (e) => fatal.push(e),
    });
    const stats = createStatsService(createStatsStore(runner));
    return { ...opened, runner, stats, fatal };
  }

  /** What a crash leaves: the connection goes without committing, so SQLite drops the open transaction. */
  async function crash() {
    await handle!.close();
    handle = undefined;
  }

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'telemetry-unit-'));
  });
  afterEach(async () => {
    await handle?.close();
    handle = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers 201/200/404/409 results in order and reads see answered writes before the unit commits', async () => {
    const { writer, stats } = await open();
    const results = await Promise.all([
      writer.submit(reportCmd(1)),
      writer.submit(reportCmd(1)),
      writer.submit(reportCmd(2)),
      writer.submit(updateCmd(2, 'success')),
      writer.submit(updateCmd(9, 'success')),
    ]);
    expect(results.slice(0, 3)).toEqual(['created', 'duplicate', 'created']);
    expect(results[3]).toMatchObject({ kind: 'updated', status: 'success' });
    expect(results[4]).toEqual({ kind: 'not_found' });
    expect(await writer.submit(updateCmd(2, 'failed'))).toMatchObject({ kind: 'conflict' });
    await writer.visible();
    expect(await stats.getSummary({})).toMatchObject({ total: 2, success: 1, inProgress: 1, orphanUpdates: 1 });
    await writer.close();
  });

  it('after a crash, applies every answered write from the journal exactly once, totals included', async () => {
    let { writer } = await open();
    await Promise.all(Array.from({ length: 50 }, (_, i) => writer.submit(reportCmd(i, { nsapp: `app-${i % 3}` }))));
    await writer.submit(updateCmd(3, 'failed'));
    await writer.submit(updateCmd(999, 'done'));
    await writer.drained();
    await crash();

    const reopened = await open();
    writer = reopened.writer;
    expect(reopened.replayed).toBe(52);
    expect(await reopened.stats.getSummary({})).toMatchObject({
      total: 50,
      failed: 1,
      inProgress: 49,
      orphanUpdates: 1,
    });
    expect(await writer.submit(reportCmd(7))).toBe('duplicate');
    await writer.close();

    // Committed now: nothing is applied twice on the next start.
    const third = await open();
    expect(third.replayed).toBe(0);
    expect(await third.stats.getSummary({})).toMatchObject({ total: 50, failed: 1, orphanUpdates: 1 });
    await third.writer.close();
  });

  it("replays the reaper's writes too: stale installs stay unknown after a crash", async () => {
    let { writer } = await open();
    await writer.submit(reportCmd(1));
    await writer.submit(reportCmd(2));
    await writer.submit(updateCmd(2, 'success'));
    expect(await writer.submit({ kind: 'reap', cutoff: NOW + 10, now: NOW + 20, limit: 100 })).toBe(1);
    await writer.drained();
    await crash();
    const reopened = await open();
    writer = reopened.writer;
    expect(reopened.replayed).toBe(4);
    expect(await reopened.stats.getSummary({})).toMatchObject({ total: 2, success: 1, unknown: 1, inProgress: 0 });
    await writer.close();
  });

  it('skips journal frames of a unit that already committed (a crash between commit and emptying the file)', async () => {
    const { writer } = await open();
    await writer.submit(reportCmd(1));
    await writer.submit(updateCmd(42, 'done'));
    await writer.close();
    await handle!.close();
    handle = undefined;
    // The same writes again under the unit number that committed them (1), and a later, uncommitted unit.
    const j = IngestJournal.open(join(dir, JOURNAL_FILE));
    j.append(1, JSON.stringify([reportCmd(1), updateCmd(42, 'done')]));
    j.append(2, JSON.stringify([reportCmd(2)]));
    j.close();

    const reopened = await open();
    expect(reopened.replayed).toBe(1);
    expect(await reopened.stats.getSummary({})).toMatchObject({ total: 2, orphanUpdates: 1 });
    await reopened.writer.close();
  });

  it('one failing write fails alone; its neighbours are answered and journaled', async () => {
    const { writer, fatal } = await open();
    const broken = { kind: 'report', report: { random_id: uuid(5) }, now: NOW } as unknown as WriteCommand;
    const settled = await Promise.allSettled([
      writer.submit(reportCmd(4)),
      writer.submit(broken),
      writer.submit(reportCmd(6)),
    ]);
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    await writer.drained();
    await crash();
    const reopened = await open();
    expect(reopened.replayed).toBe(2);
    expect(await reopened.stats.getSummary({})).toMatchObject({ total: 2 });
    await reopened.writer.close();
    expect(fatal).toEqual([]);
  });

  it('if SQLite drops the open transaction, the writer stops and the next start restores every answered write', async () => {
    const { writer, fatal } = await open();
    expect(await writer.submit(reportCmd(1))).toBe('created');
    // What SQLite does itself on some disk-full or I/O errors: the answered report is gone from the database.
    handle!.sqlite!.exec('ROLLBACK');
    await expect(writer.submit(reportCmd(2))).rejects.toThrow(/rolled back the open transaction/);
    expect(fatal).toHaveLength(1);
    await expect(writer.submit(reportCmd(3))).rejects.toThrow(/rolled back/);
    await crash();

    const reopened = await open();
    expect(reopened.replayed).toBe(1);
    expect(await reopened.stats.getSummary({})).toMatchObject({ total: 1 });
    await reopened.writer.close();
  });

  it('a clean close commits the unit and empties the journal', async () => {
    const { writer } = await open();
    await writer.submit(reportCmd(1));
    await writer.close();
    const j = IngestJournal.open(join(dir, JOURNAL_FILE));
    expect(j.frames()).toEqual([]);
    j.close();
    await expect(writer.submit(reportCmd(2))).rejects.toThrow(/shutting down/);
  });
});
