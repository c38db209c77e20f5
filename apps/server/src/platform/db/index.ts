import { join } from 'node:path';
import { type DatabaseHandle, migrate, openDatabase } from '@svc/platform';
import type { Config } from '../../config/index.js';
import { migrations } from './migrations/index.js';
import type { Database } from './schema.js';

export type Db = DatabaseHandle<Database>;
export { type Database, DEFAULT_ORG } from './schema.js';
export { migrations };

/** PostgreSQL when a URL is configured, else SQLite at `<dataDir>/svc.db` (`:memory:` for tests). */
export function openServerDatabase(config: Pick<Config, 'dataDir' | 'databaseUrl'>): Db {
  if (config.databaseUrl) return openDatabase<Database>({ postgresUrl: config.databaseUrl });
  const path = config.dataDir === ':memory:' ? ':memory:' : join(config.dataDir, 'svc.db');
  return openDatabase<Database>({ sqlitePath: path });
}

export async function migrateServerDatabase(handle: Db) {
  return migrate(handle.db as never, handle.dialect, migrations);
}
