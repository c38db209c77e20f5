import type { AuthStyle } from '../api.client.js';
import { type ClientDeps, type ConnectionConfig, createKindClient, type KindClient } from '../api.factory.js';

/** hv token header: the server splits on the last `=`, so the secret follows `tokenid=`. */
export const hvAuth: AuthStyle = {
  tokenHeader: (tokenId, secret) => `PVEAPIToken=${tokenId}=${secret}`,
  cookie: 'PVEAuthCookie',
};

export const HV_PORT = 8006;

export const createHvClient = (cfg: ConnectionConfig, deps: ClientDeps): KindClient =>
  createKindClient(hvAuth, HV_PORT, cfg, deps);
