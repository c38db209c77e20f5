import { join } from 'node:path';
import { type DatabaseHandle, migrate, openDatabase } from '@svc/platform';
import type { TelemetryConfig } from '../config/index.js';
import { migrations } from './db.migrations.js';
import { postgresRunner, type SqlRunner, sqliteRunner } from './db.runner.js';
import type { TelemetryDatabase } from './db.schema.js';

export type TelemetryDb = DatabaseHandle<TelemetryDatabase>;
export type { SqlRunner, SqlTx } from './db.runner.js';
export { migrations };

/** PostgreSQL when a URL is configured, else SQLite at `<dataDir>/telemetry.db` (`:memory:` for tests). */
export function openTelemetryDatabase(
  config: Pick<TelemetryConfig, 'dataDir' | 'databaseUrl' | 'durableWrites'>,
): TelemetryDb {
  if (config.databaseUrl) return openDatabase<TelemetryDatabase>({ postgresUrl: config.databaseUrl });
  const path = config.dataDir === ':memory:' ? ':memory:' : join(config.dataDir, 'telemetry.db');
  const handle = openDatabase<TelemetryDatabase>({ sqlitePath: path });
  // WAL + FULL fsyncs every commit; the batch writer groups concurrent requests into one commit.
  if (config.durableWrites) handle.sqlite?.pragma('synchronous = FULL');
  return handle;
}

export async function migrateTelemetryDatabase(handle: TelemetryDb) {
  return migrate(handle.db as never, handle.dialect, migrations);
}

export function runnerFor(handle: TelemetryDb): SqlRunner {
  return handle.sqlite ? sqliteRunner(handle.sqlite) : postgresRunner(handle.db as never);
}
