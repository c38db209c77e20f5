import { networkInterfaces } from 'node:os';
import type { setupRoutes } from '@svc/contract';
import { AppError, type Handlers } from '@svc/platform';
import type { Caller } from '../../platform/http/principal.js';
import { discover } from './nodes.discover.js';
import type { createSetupService } from './nodes.setup.js';
import type { createTransferService } from './nodes.transfer.js';

/** The /24 of the first non-internal IPv4 address: where an operator's nodes most likely are. */
function localSubnet(): string {
  for (const list of Object.values(networkInterfaces())) {
    for (const a of list ?? []) {
      if (a.family === 'IPv4' && !a.internal) return `${a.address.split('.').slice(0, 3).join('.')}.0/24`;
    }
  }
  throw new AppError(
    'bad_request',
    'No local IPv4 network was found: give the subnet to scan, e.g. ?subnet=192.168.1.0/24.',
  );
}

export function setupHandlers(
  setup: ReturnType<typeof createSetupService>,
  transfer: ReturnType<typeof createTransferService>,
): Handlers<typeof setupRoutes, Caller> {
  return {
    exportConfig: (ctx, { body }) => transfer.exportConfig(ctx, body.passphrase),
    importConfig: (ctx, { body }) => transfer.importConfig(ctx, body.data, body.passphrase),
    createSetupScriptUrl: (ctx, { body }) => setup.createSetupUrl(ctx, body),
    getSetupScript: (ctx, { query }) => setup.getScript(ctx, query),
    autoRegister: (ctx, { body }) => setup.autoRegister(ctx, body),
    discoverNodes: (_ctx, { query }) =>
      discover(query.subnet ?? localSubnet(), query.ports ? query.ports.split(',').map(Number) : [8006, 8007]),
  };
}
