import type { AuthStyle } from '../api.client.js';
import { type ClientDeps, type ConnectionConfig, createKindClient, type KindClient } from '../api.factory.js';

/** The mail gateway implements no API tokens (its server refuses them): tickets only. */
export const mailAuth: AuthStyle = { cookie: 'PMGAuthCookie' };

export const MAIL_PORT = 8006;

export const createMailClient = (cfg: ConnectionConfig, deps: ClientDeps): KindClient =>
  createKindClient(mailAuth, MAIL_PORT, cfg, deps);
