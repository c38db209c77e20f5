import { ConfigError } from './env.js';
import type { Logger } from './log.js';

export interface RunningService {
  log: Logger;
  /** Stops accepting, finishes what is in flight, closes stores. */
  close(): Promise<void>;
}

const SHUTDOWN_LIMIT_MS = 10_000;

/**
 * The `serve` command of every svc binary: configuration errors stop with exit code 2 and the message naming
 * the variable; SIGTERM/SIGINT stop cleanly (exit 0), or exit 1 if stopping fails or takes over 10 seconds.
 */
export async function serveUntilSignal<C>(
  name: string,
  loadConfig: () => C,
  start: (config: C) => Promise<RunningService>,
  inFlight = 'in-flight requests',
): Promise<void> {
  let config: C;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${name}: configuration error: ${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
  const service = await start(config);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    service.log.info({ signal }, `shutting down: finishing ${inFlight}`);
    // Work that never finishes must not keep the service from stopping.
    const force = setTimeout(() => {
      service.log.error(`shutdown took longer than ${SHUTDOWN_LIMIT_MS / 1000} s; exiting anyway`);
      process.exit(1);
    }, SHUTDOWN_LIMIT_MS);
    force.unref();
    service.close().then(
      () => {
        service.log.info('stopped');
        process.exit(0);
      },
      (err: unknown) => {
        service.log.error({ err }, 'error while shutting down');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}
