import { AppError, type Clock, type Logger } from '@svc/platform';
import type { InstallReport, StatusUpdate } from '../contract.schemas.js';
import type { IngestWriter } from './ingest.commands.js';

export interface IngestAnswer {
  message: string;
  random_id: string;
  status: string;
}

export interface IngestService {
  recordReport(input: InstallReport): Promise<{ created: boolean; body: IngestAnswer }>;
  recordStatusUpdate(input: StatusUpdate): Promise<IngestAnswer>;
}

export function createIngestService(deps: { writer: IngestWriter; clock: Clock; log: Logger }): IngestService {
  return {
    async recordReport(input) {
      const now = deps.clock.now();
      const result = await deps.writer.submit({ kind: 'report', report: input, now });
      if (result === 'created') {
        return { created: true, body: { message: 'Report stored.', random_id: input.random_id, status: input.status } };
      }
      // Clients resend on retries and re-sourced scripts: the first report stands, nothing is duplicated.
      return {
        created: false,
        body: {
          message: 'This installation was already reported; nothing changed.',
          random_id: input.random_id,
          status: input.status,
        },
      };
    },

    async recordStatusUpdate(input) {
      const now = deps.clock.now();
      const r = await deps.writer.submit({ kind: 'update', update: input, now });
      switch (r.kind) {
        case 'updated':
          return {
            message: `Status changed from ${r.from} to ${r.status}.`,
            random_id: input.random_id,
            status: r.status,
          };
        case 'unchanged':
          return {
            message: `The installation already has the outcome ${r.status}; nothing changed.`,
            random_id: input.random_id,
            status: r.status,
          };
        case 'conflict':
          throw new AppError(
            'conflict',
            `The installation already finished as ${r.status}; a different outcome (${input.status}) is not accepted.`,
            { random_id: input.random_id, current: r.status, requested: input.status },
          );
        case 'not_found':
          deps.log.debug({ status: input.status }, 'status update for an installation never reported');
          throw new AppError(
            'not_found',
            `No installation was reported with random_id ${input.random_id}: send the report to /upload first. ` +
              'The update was counted as an orphan.',
            { random_id: input.random_id },
          );
      }
    },
  };
}
