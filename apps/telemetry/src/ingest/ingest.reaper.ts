import type { Clock, Logger } from '@svc/platform';
import type { IngestWriter } from './ingest.commands.js';

export interface ReaperOptions {
  staleAfterHours: number;
  /** 0 keeps records forever. */
  retentionDays: number;
  intervalSeconds: number;
}

const CHUNK = 500;
const HOUR = 3_600_000;

/**
 * Installs whose outcome never arrives (killed shells, lost updates) would stay "installing" forever and
 * skew every rate; the reaper marks them unknown. It also enforces retention. Work is chunked so a large
 * backlog never holds one long write transaction.
 */
export function createReaper(deps: { writer: IngestWriter; clock: Clock; log: Logger; options: ReaperOptions }) {
  const { writer, clock, options } = deps;

  async function runOnce(): Promise<{ reaped: number; purged: number }> {
    const now = clock.now();
    let reaped = 0;
    let purged = 0;
    for (;;) {
      const cutoff = now - options.staleAfterHours * HOUR;
      const n = await writer.submit({ kind: 'reap', cutoff, now, limit: CHUNK });
      reaped += n;
      if (n < CHUNK) break;
    }
    if (options.retentionDays > 0) {
      for (;;) {
        const cutoff = now - options.retentionDays * 24 * HOUR;
        const n = await writer.submit({ kind: 'purge', cutoff, limit: CHUNK });
        purged += n;
        if (n < CHUNK) break;
      }
    }
    if (reaped + purged > 0)
      deps.log.info({ reaped, purged }, 'reaper: stale installs marked unknown, old ones deleted');
    return { reaped, purged };
  }

  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();
  return {
    runOnce,
    start(): void {
      const tick = () => {
        running = runOnce().catch((err: unknown) => deps.log.error({ err }, 'reaper run failed'));
      };
      tick();
      timer = setInterval(tick, options.intervalSeconds * 1000);
      timer.unref();
    },
    async stop(): Promise<void> {
      if (timer) clearInterval(timer);
      await running;
    },
  };
}
