import { type Clock, createMemoryLogger, FakeClock } from '@svc/platform';
import type { FastifyInstance } from 'fastify';
import { type AppDeps, buildApp } from '../app.js';
import { loadConfig, type TelemetryConfig } from '../config/index.js';
import {
  migrateTelemetryDatabase,
  openTelemetryDatabase,
  runnerFor,
  type SqlRunner,
  type TelemetryDb,
} from '../db/index.js';
import { createReaper } from '../ingest/ingest.reaper.js';
import { BatchWriter } from '../ingest/ingest.writer.js';

export interface TestTelemetry {
  app: FastifyInstance;
  db: TelemetryDb;
  runner: SqlRunner;
  writer: BatchWriter;
  config: TelemetryConfig;
  clock: FakeClock;
  reaper: ReturnType<typeof createReaper>;
  logLines(): string[];
  close(): Promise<void>;
}

/** A migrated in-memory SQLite (or the given PostgreSQL URL) and an app on it, with a fake clock. */
export async function createTestTelemetry(
  opts: { databaseUrl?: string; env?: Record<string, string>; overrides?: Partial<AppDeps>; clock?: Clock } = {},
): Promise<TestTelemetry> {
  const config = loadConfig({ SVC_TELEMETRY_DATA_DIR: ':memory:', LOG_LEVEL: 'debug', ...opts.env });
  const effective = { ...config, dataDir: ':memory:', databaseUrl: opts.databaseUrl, durableWrites: false };
  const db = openTelemetryDatabase(effective);
  await migrateTelemetryDatabase(db);
  const runner = runnerFor(db);
  const writer = new BatchWriter(runner);
  const clock = new FakeClock(Date.UTC(2026, 10, 22, 12, 0, 0));
  const { logger, lines } = createMemoryLogger('debug');
  const app = await buildApp({
    config: effective,
    runner,
    writer,
    log: logger,
    clock: opts.clock ?? clock,
    validateResponses: true,
    ...opts.overrides,
  });
  const reaper = createReaper({
    writer,
    clock: opts.clock ?? clock,
    log: logger,
    options: {
      staleAfterHours: config.staleAfterHours,
      retentionDays: config.retentionDays,
      intervalSeconds: config.reaperIntervalSeconds,
    },
  });
  return {
    app,
    db,
    runner,
    writer,
    config: effective,
    clock,
    reaper,
    logLines: lines,
    async close() {
      await app.close();
      await writer.drained();
      await db.close();
    },
  };
}
