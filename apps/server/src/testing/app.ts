import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Clock, createMemoryLogger, FakeClock } from '@svc/platform';
import type { FastifyInstance } from 'fastify';
import { type AppDeps, buildApp } from '../app.js';
import { type Config, loadConfig } from '../config/index.js';
import { buildInfo } from '../platform/build-info.js';
import { type Db, migrateServerDatabase, openServerDatabase } from '../platform/db/index.js';

export interface TestApp {
  app: FastifyInstance;
  db: Db;
  config: Config;
  clock: FakeClock;
  logLines(): string[];
  close(): Promise<void>;
}

/** A migrated in-memory SQLite (or the given PostgreSQL URL) and an app built on it, with a fake clock. */
export async function createTestApp(
  opts: {
    databaseUrl?: string;
    overrides?: Partial<AppDeps>;
    clock?: Clock;
    /** Extra environment variables for loadConfig (rate limits, deployment hints). */
    env?: Record<string, string>;
    /** Reuse a data directory (keys, bootstrap token), e.g. to restart on the same database. */
    dataDir?: string;
  } = {},
): Promise<TestApp> {
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'svc-test-'));
  const config = loadConfig({
    SVC_DATA_DIR: dataDir,
    SVC_DATABASE_URL: opts.databaseUrl,
    LOG_LEVEL: 'debug',
    ...opts.env,
  });
  const db = opts.databaseUrl ? openServerDatabase(config) : openServerDatabase({ ...config, dataDir: ':memory:' });
  await migrateServerDatabase(db);
  const clock = new FakeClock(Date.UTC(2026, 10, 22, 12, 0, 0));
  const { logger, lines } = createMemoryLogger('debug');
  const app = await buildApp({
    config,
    db,
    log: logger,
    build: buildInfo(),
    clock: opts.clock ?? clock,
    validateResponses: true,
    ...opts.overrides,
  });
  await app.ready();
  return {
    app,
    db,
    config,
    clock,
    logLines: lines,
    async close() {
      await app.close();
      await db.close();
    },
  };
}
