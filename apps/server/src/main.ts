import { chmodSync, mkdirSync } from 'node:fs';
import { createLogger, type Logger } from '@svc/platform';
import { buildApp } from './app.js';
import type { Config } from './config/index.js';
import { buildInfo } from './platform/build-info.js';
import { migrateServerDatabase, openServerDatabase } from './platform/db/index.js';
import { releaseYoungGeneration } from './platform/heap.js';

export interface RunningServer {
  url: string;
  log: Logger;
  /** Stops accepting, lets in-flight requests finish, closes the database. */
  close(): Promise<void>;
}

/** Composition root: config -> data dir -> database -> migrations -> app -> listen. */
export async function startServer(config: Config, opts: { pretty?: boolean } = {}): Promise<RunningServer> {
  const log = createLogger({ level: config.logLevel, name: 'svc', pretty: opts.pretty });
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  chmodSync(config.dataDir, 0o700);
  const db = openServerDatabase(config);
  try {
    const result = await migrateServerDatabase(db);
    if (result.applied.length > 0) {
      log.info({ applied: result.applied.map((m) => `${m.id}-${m.name}`) }, 'database migrated');
    }
  } catch (err) {
    await db.close();
    throw err;
  }
  const build = buildInfo();
  // Under systemd a non-zero exit makes Restart=on-failure (or always) start svc again.
  const restart =
    config.deploymentType === 'systemd'
      ? () => {
          log.warn('restarting on request (apply-restart)');
          void app
            .close()
            .then(() => db.close())
            .finally(() => process.exit(3));
        }
      : undefined;
  const app = await buildApp({ config, db, log, build, restart });
  const url = await app.listen({ port: config.port, host: config.host });
  log.info({ url, version: build.version, database: db.dialect, location: db.location }, 'svc is listening');
  releaseYoungGeneration();
  return {
    url,
    log,
    async close() {
      await app.close();
      await db.close();
    },
  };
}
