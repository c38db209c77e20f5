import type { TLSSocket } from 'node:tls';
import type { buildConnector, Dispatcher } from 'undici';
import { undici } from '../platform/http/undici.js';
import { ApiError } from './api.errors.js';

export interface TlsOptions {
  /** Verify the certificate chain and host name (default true). Ignored when a fingerprint is pinned. */
  verify?: boolean;
  /** SHA-256 fingerprint of the expected certificate (hex, any case, colons optional). */
  fingerprint?: string;
  connectTimeoutMs?: number;
  /** Max sockets per origin: bounds fan-out against one API server. */
  connections?: number;
}

export const normalizeFingerprint = (fp: string): string => fp.replace(/[^0-9a-f]/gi, '').toUpperCase();

/** An undici Agent for one API origin: verify, skip verification, or accept only a pinned certificate. */
export function createDispatcher(opts: TlsOptions = {}): Dispatcher {
  const pin = opts.fingerprint ? normalizeFingerprint(opts.fingerprint) : undefined;
  if (pin !== undefined && pin.length !== 64) throw new RangeError('fingerprint must be a SHA-256 digest');
  const { Agent, buildConnector: connector } = undici();
  const base = connector({
    rejectUnauthorized: pin === undefined && opts.verify !== false,
    timeout: opts.connectTimeoutMs ?? 10_000,
  });
  const connections = opts.connections ?? 16;
  if (pin === undefined) return new Agent({ connect: base, connections, keepAliveTimeout: 30_000 });
  const connect: buildConnector.connector = (options, callback) =>
    base(options, (err, socket) => {
      if (err || !socket) return callback(err ?? new Error('no socket'), null);
      if (options.protocol !== 'https:') return callback(null, socket);
      const actual = (socket as TLSSocket).getPeerCertificate?.()?.fingerprint256;
      if (!actual || normalizeFingerprint(actual) !== pin) {
        socket.destroy();
        return callback(new ApiError('tls', 'certificate fingerprint does not match the pinned fingerprint'), null);
      }
      callback(null, socket);
    });
  return new Agent({ connect, connections, keepAliveTimeout: 30_000 });
}
