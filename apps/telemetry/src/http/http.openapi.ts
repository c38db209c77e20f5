import { buildOpenApi } from '@svc/contract';
import { telemetryRoutes } from '../contract.js';

export function telemetryOpenApi(version: string): Record<string, unknown> {
  return buildOpenApi(telemetryRoutes, {
    title: 'svc-telemetry',
    version,
    description:
      'Anonymous install telemetry from installer scripts: reports, status updates, public statistics. ' +
      'No credentials: ingest is rate-limited per client address, statistics are read-only.',
  });
}
