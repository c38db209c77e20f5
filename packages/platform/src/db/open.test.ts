import { sql } from 'kysely';
import pg from 'pg';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { createTestDatabase } from '../testing/index.js';
import { type DatabaseHandle, openDatabase } from './open.js';

describe('PostgreSQL pool', () => {
  let handle: DatabaseHandle<unknown> | undefined;
  let drop: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await handle?.close();
    await drop?.();
  });

  it('survives the server ending an idle connection, and the next query works', async () => {
    const created = await createTestDatabase(inject('pgUrl'));
    drop = created.drop;
    handle = openDatabase({ postgresUrl: created.url, poolSize: 2 });
    const pid = (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(handle.db)).rows[0]!.pid;

    const admin = new pg.Client({ connectionString: inject('pgUrl') });
    await admin.connect();
    await admin.query('select pg_terminate_backend($1)', [pid]);
    await admin.end();

    // Without the pool's error listener the idle client's error would be an uncaught exception here.
    const r = await sql<{ one: number }>`select 1 as one`.execute(handle.db);
    expect(r.rows[0]!.one).toBe(1);
  });
});
