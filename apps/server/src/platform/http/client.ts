import { isIP } from 'node:net';

const FORWARDING_HEADERS = ['x-forwarded-for', 'x-real-ip', 'forwarded', 'x-forwarded-host'];

export function isLoopback(ip: string): boolean {
  if (ip === '::1') return true;
  const v4 = ip.startsWith('::ffff:') ? ip.slice(7) : ip;
  return isIP(v4) === 4 && v4.startsWith('127.');
}

/**
 * Loopback peer with no proxy headers: a reverse proxy on the same host connects from loopback too, and
 * must not make every remote visitor look local.
 */
export function isDirectLoopback(ip: string, headers: Record<string, string | string[] | undefined>): boolean {
  return isLoopback(ip) && FORWARDING_HEADERS.every((h) => headers[h] === undefined);
}
