import type { DialectName } from '@svc/platform';
import type BetterSqlite3 from 'better-sqlite3';
import { CompiledQuery, type Kysely } from 'kysely';

/** Plain SQL with `?` placeholders, written once in the subset SQLite and PostgreSQL share. */
export interface SqlTx {
  all<T>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  /** Returns the number of rows changed. */
  run(sql: string, params?: readonly unknown[]): Promise<number>;
}

export interface SqlRunner extends SqlTx {
  dialect: DialectName;
  transaction<T>(fn: (tx: SqlTx) => Promise<T>): Promise<T>;
}

/**
 * SQLite: cached prepared statements on the one better-sqlite3 connection (the hot path of ingest).
 * All writes go through the batch writer, so transactions never nest or overlap.
 */
export function sqliteRunner(db: BetterSqlite3.Database): SqlRunner {
  const cache = new Map<string, BetterSqlite3.Statement>();
  const prepare = (sql: string) => {
    let s = cache.get(sql);
    if (!s) {
      s = db.prepare(sql);
      cache.set(sql, s);
    }
    return s;
  };
  const tx: SqlTx = {
    all: async <T>(sql: string, params: readonly unknown[] = []) => prepare(sql).all(...params) as T[],
    run: async (sql, params = []) => prepare(sql).run(...params).changes,
  };
  return {
    dialect: 'sqlite',
    ...tx,
    async transaction(fn) {
      db.exec('BEGIN IMMEDIATE');
      try {
        const out = await fn(tx);
        db.exec('COMMIT');
        return out;
      } catch (err) {
        if (db.inTransaction) db.exec('ROLLBACK');
        throw err;
      }
    },
  };
}

function toPg(sql: string): string {
  let i = 0;
  return sql.replace(/\?/g, () => `$${++i}`);
}

/** PostgreSQL through Kysely's pool, so the service keeps one connection setup. */
export function postgresRunner(db: Kysely<unknown>): SqlRunner {
  const over = (exec: Kysely<unknown>): SqlTx => ({
    all: async <T>(sql: string, params: readonly unknown[] = []) =>
      (await exec.executeQuery<T>(CompiledQuery.raw(toPg(sql), [...params]))).rows,
    run: async (sql, params = []) =>
      Number((await exec.executeQuery(CompiledQuery.raw(toPg(sql), [...params]))).numAffectedRows ?? 0),
  });
  return {
    dialect: 'postgres',
    ...over(db),
    transaction: (fn) => db.transaction().execute((trx) => fn(over(trx))),
  };
}
