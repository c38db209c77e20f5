import { type Kysely, sql } from 'kysely';
import type { DialectName } from './open.js';

/**
 * A forward-only schema change. Ids are consecutive from 1 and never reused or edited once released:
 * a change to a released table is a new migration.
 */
// Declare primary-key columns notNull explicitly: SQLite lets a non-rowid primary key hold NULL, PostgreSQL
// does not, and the schema-equality test compares both.
export interface Migration {
  id: number;
  name: string;
  up(db: Kysely<unknown>, dialect: DialectName): Promise<void>;
}

export interface MigrationResult {
  applied: { id: number; name: string }[];
  current: number;
}

const TABLE = 'svc_migrations';
/** Arbitrary constant key for the PostgreSQL advisory lock that serializes migrations across instances. */
const PG_LOCK_KEY = 7655_0001;

/** Applies all pending migrations in one transaction; a failure leaves the schema as it was. */
export async function migrate(
  db: Kysely<unknown>,
  dialect: DialectName,
  migrations: readonly Migration[],
): Promise<MigrationResult> {
  checkSequence(migrations);
  return db.transaction().execute(async (trx) => {
    if (dialect === 'postgres') await sql`select pg_advisory_xact_lock(${PG_LOCK_KEY})`.execute(trx);
    await trx.schema
      .createTable(TABLE)
      .ifNotExists()
      .addColumn('id', 'integer', (c) => c.primaryKey().notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('applied_at', 'text', (c) => c.notNull())
      .execute();
    const rows = await sql<{ id: number }>`select id from ${sql.table(TABLE)}`.execute(trx);
    const done = new Set(rows.rows.map((r) => Number(r.id)));
    const known = new Set(migrations.map((m) => m.id));
    const unknown = [...done].filter((id) => !known.has(id));
    if (unknown.length > 0) {
      throw new Error(
        `The database has migrations this version of svc does not know (${unknown.join(', ')}); it was written by a newer release.`,
      );
    }
    const applied: MigrationResult['applied'] = [];
    for (const m of migrations) {
      if (done.has(m.id)) continue;
      await m.up(trx as Kysely<unknown>, dialect);
      await sql`insert into ${sql.table(TABLE)} (id, name, applied_at) values (${m.id}, ${m.name}, ${new Date().toISOString()})`.execute(
        trx,
      );
      applied.push({ id: m.id, name: m.name });
    }
    return { applied, current: migrations.at(-1)?.id ?? 0 };
  });
}

function checkSequence(migrations: readonly Migration[]): void {
  migrations.forEach((m, i) => {
    if (m.id !== i + 1) throw new Error(`Migration ids must run 1, 2, 3...: found ${m.id} at position ${i + 1}.`);
  });
}
