import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMemoryLogger, systemClock } from '@svc/platform';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../apps/server/src/app.js';
import { loadConfig } from '../../apps/server/src/config/index.js';
import { buildInfo } from '../../apps/server/src/platform/build-info.js';
import { migrateServerDatabase, openServerDatabase } from '../../apps/server/src/platform/db/index.js';
import type { LiveState } from '../../apps/server/src/state/index.js';
import { createToken, login, setUpAdmin } from '../../apps/server/src/testing/access.js';

/**
 * A real svc app for benchmarks: in-memory SQLite, real clock and timers, an administrator and one
 * monitoring:read token. Rate limits are raised: a benchmark opens many connections from one address.
 */
export async function startSvc(state: LiveState): Promise<{ app: FastifyInstance; port: number; token: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-'));
  const config = loadConfig({
    SVC_DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    SVC_RATE_LIMIT_DEFAULT: '1000000/1m',
    SVC_RATE_LIMIT_AUTH: '1000/1m',
  });
  const db = openServerDatabase({ ...config, dataDir: ':memory:' });
  await migrateServerDatabase(db);
  const { logger } = createMemoryLogger('warn');
  const app = await buildApp({ config, db, log: logger, build: buildInfo(), clock: systemClock, state });
  await app.ready();
  const t = { app, config } as Parameters<typeof setUpAdmin>[0];
  await setUpAdmin(t);
  const token = await createToken(t, await login(t), ['monitoring:read'], 'bench');
  await app.listen({ port: 0, host: '127.0.0.1' });
  const addr = app.server.address();
  return { app, port: typeof addr === 'object' && addr ? addr.port : 0, token };
}
