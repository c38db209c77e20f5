import type { AuthStyle } from '../api.client.js';
import { type ClientDeps, type ConnectionConfig, createKindClient, type KindClient } from '../api.factory.js';

/** bak separates token name and secret with `:` (hv uses `=`). */
export const bakAuth: AuthStyle = {
  tokenHeader: (tokenId, secret) => `PBSAPIToken=${tokenId}:${secret}`,
  cookie: 'PBSAuthCookie',
};

export const BAK_PORT = 8007;

export const createBakClient = (cfg: ConnectionConfig, deps: ClientDeps): KindClient =>
  createKindClient(bakAuth, BAK_PORT, cfg, deps);
