import { migrate } from '@svc/platform';
import { createTestDatabase } from '@svc/platform/testing';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { dialects } from '../testing/dialects.js';
import { migrations, openTelemetryDatabase, runnerFor, type TelemetryDb } from './index.js';

/** Migration 2 reshapes the running totals: whatever migration 1's table counted must still be counted. */
describe.each(dialects)('telemetry migrations on %s', (dialect) => {
  let db: TelemetryDb;
  let drop: () => Promise<void> = async () => undefined;

  afterEach(async () => {
    await db.close();
    await drop();
  });

  /** An empty database of this dialect, not yet migrated. */
  async function openEmpty(): Promise<TelemetryDb> {
    let databaseUrl: string | undefined;
    if (dialect === 'postgres') {
      const pg = await createTestDatabase(inject('pgUrl'));
      databaseUrl = pg.url;
      drop = pg.drop;
    }
    return openTelemetryDatabase({ dataDir: ':memory:', databaseUrl, durableWrites: false });
  }

  it('carries every per-status row of install_counts into one row per key, then drops the old table', async () => {
    db = await openEmpty();
    await migrate(db.db as never, db.dialect, migrations.slice(0, 1));
    const runner = runnerFor(db);
    const old: [string, string, string, string, string, string, number][] = [
      ['all', 't', '', '', '', 'done', 5],
      ['all', 't', '', '', '', 'failed', 2],
      ['all', 't', '', '', '', 'installing', 1],
      ['nsapp', 'd', '2026-11-20', 'pihole', '', 'success', 3],
      ['nsapp', 'd', '2026-11-20', 'pihole', '', 'unknown', 4],
      ['os', 'm', '2026-11', 'debian', '12', 'aborted', 6],
    ];
    for (const row of old)
      await runner.run(
        'insert into install_counts (dim, grain, day, k1, k2, status, n) values (?, ?, ?, ?, ?, ?, ?)',
        row,
      );

    const result = await migrate(db.db as never, db.dialect, migrations.slice(0, 2));
    expect(result.applied.map((m) => m.id)).toEqual([2]);
    const rows = await runner.all<Record<string, unknown>>(
      'select * from install_totals order by dim, grain, day, k1, k2',
    );
    const zero = {
      n_installing: 0,
      n_validation: 0,
      n_configuring: 0,
      n_failed: 0,
      n_done: 0,
      n_success: 0,
      n_aborted: 0,
      n_unknown: 0,
    };
    expect(rows.map((r) => ({ ...r }))).toEqual([
      { dim: 'all', grain: 't', day: '', k1: '', k2: '', ...zero, n_done: 5, n_failed: 2, n_installing: 1 },
      { dim: 'nsapp', grain: 'd', day: '2026-11-20', k1: 'pihole', k2: '', ...zero, n_success: 3, n_unknown: 4 },
      { dim: 'os', grain: 'm', day: '2026-11', k1: 'debian', k2: '12', ...zero, n_aborted: 6 },
    ]);
    await expect(runner.all('select * from install_counts')).rejects.toThrow();
  });

  it('migration 3 starts the journal state at unit 0', async () => {
    db = await openEmpty();
    const result = await migrate(db.db as never, db.dialect, migrations);
    expect(result.applied.map((m) => m.id)).toEqual([1, 2, 3]);
    const rows = await runnerFor(db).all<{ id: number; unit: number }>('select id, unit from journal_state');
    expect(rows.map((r) => ({ id: Number(r.id), unit: Number(r.unit) }))).toEqual([{ id: 1, unit: 0 }]);
  });
});
