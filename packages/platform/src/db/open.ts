import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import type Pg from 'pg';

export type DialectName = 'sqlite' | 'postgres';

export interface DatabaseHandle<DB> {
  db: Kysely<DB>;
  dialect: DialectName;
  /** Where the data lives, for logs: a file path, `:memory:`, or the PostgreSQL URL without its password. */
  location: string;
  /** The raw SQLite connection, for hot paths that use prepared statements (absent on PostgreSQL). */
  sqlite?: BetterSqlite3.Database;
  close(): Promise<void>;
}

export type DatabaseTarget = { sqlitePath: string } | { postgresUrl: string; poolSize?: number };

export function openDatabase<DB>(target: DatabaseTarget): DatabaseHandle<DB> {
  if ('postgresUrl' in target) return openPostgres<DB>(target.postgresUrl, target.poolSize ?? 10);
  return openSqlite<DB>(target.sqlitePath);
}

function openSqlite<DB>(path: string): DatabaseHandle<DB> {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const sqlite = new BetterSqlite3(path);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('foreign_keys = ON');
  const db = new Kysely<DB>({ dialect: new SqliteDialect({ database: sqlite }) });
  return {
    db,
    dialect: 'sqlite',
    location: path,
    sqlite,
    // Kysely's destroy closes the better-sqlite3 connection, which checkpoints the WAL.
    close: () => db.destroy(),
  };
}

/** `pg` is loaded only when PostgreSQL is configured: SQLite installations never pay for it. */
function loadPg(): typeof Pg {
  return createRequire(import.meta.url)('pg') as typeof Pg;
}

function openPostgres<DB>(url: string, max: number): DatabaseHandle<DB> {
  const pg = loadPg();
  // BIGINT (int8) columns come back as strings by default; ours hold millisecond timestamps and counters.
  pg.types.setTypeParser(20, (v: string) => Number(v));
  const pool = new pg.Pool({ connectionString: url, max });
  // An idle pooled connection that the server ends (a restart, a failover, an administrator) makes the pool
  // emit 'error'; with no listener that would end the whole process. The pool has already dropped the
  // client, and the next query opens a fresh connection or reports its own failure where it is handled.
  pool.on('error', () => undefined);
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  return { db, dialect: 'postgres', location: redactUrl(url), close: () => db.destroy() };
}

export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(unparseable URL)';
  }
}
