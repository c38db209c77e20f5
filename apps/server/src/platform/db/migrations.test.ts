import { type DatabaseHandle, describeSchema, migrate, openDatabase } from '@svc/platform';
import { createTestDatabase } from '@svc/platform/testing';
import { sql } from 'kysely';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { migrations } from './index.js';

describe('server migrations on SQLite and PostgreSQL', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c();
  });

  async function fresh(dialect: 'sqlite' | 'postgres'): Promise<DatabaseHandle<unknown>> {
    if (dialect === 'sqlite') {
      const h = openDatabase<unknown>({ sqlitePath: ':memory:' });
      cleanups.push(() => h.close());
      return h;
    }
    const pgdb = await createTestDatabase(inject('pgUrl'));
    const h = openDatabase<unknown>({ postgresUrl: pgdb.url });
    cleanups.push(async () => {
      await h.close();
      await pgdb.drop();
    });
    return h;
  }

  it('an empty SQLite and an empty PostgreSQL get the same schema', async () => {
    const lite = await fresh('sqlite');
    const pg = await fresh('postgres');
    const a = await migrate(lite.db, 'sqlite', migrations);
    const b = await migrate(pg.db, 'postgres', migrations);
    expect(a.applied.map((m) => m.id)).toEqual(migrations.map((m) => m.id));
    expect(b.applied).toEqual(a.applied);
    const liteSchema = await describeSchema(lite.db);
    expect(Object.keys(liteSchema)).toContain('svc_migrations');
    expect(await describeSchema(pg.db)).toEqual(liteSchema);
  });

  it.each(['sqlite', 'postgres'] as const)('re-running on %s is a no-op', async (dialect) => {
    const h = await fresh(dialect);
    await migrate(h.db, dialect, migrations);
    const before = await describeSchema(h.db);
    const again = await migrate(h.db, dialect, migrations);
    expect(again.applied).toEqual([]);
    expect(again.current).toBe(migrations.length);
    expect(await describeSchema(h.db)).toEqual(before);
    const rows = await sql<{ n: number }>`select count(*) as n from svc_migrations`.execute(h.db);
    expect(Number(rows.rows[0]?.n)).toBe(migrations.length);
  });

  it.each(['sqlite', 'postgres'] as const)('a failing migration on %s leaves nothing behind', async (dialect) => {
    const h = await fresh(dialect);
    const broken = [
      ...migrations,
      {
        id: migrations.length + 1,
        name: 'half-done',
        async up(db: Parameters<(typeof migrations)[number]['up']>[0]) {
          await db.schema.createTable('half_done').addColumn('id', 'integer').execute();
          throw new Error('boom');
        },
      },
    ];
    await expect(migrate(h.db, dialect, broken)).rejects.toThrow('boom');
    const tables = Object.keys(await describeSchema(h.db));
    expect(tables).not.toContain('half_done');
    expect(tables).not.toContain('settings');
  });

  it('refuses a database written by a newer release', async () => {
    const h = await fresh('sqlite');
    await migrate(h.db, 'sqlite', migrations);
    await sql`insert into svc_migrations (id, name, applied_at) values (999, 'future', 'x')`.execute(h.db);
    await expect(migrate(h.db, 'sqlite', migrations)).rejects.toThrow(/newer release/);
  });
});
