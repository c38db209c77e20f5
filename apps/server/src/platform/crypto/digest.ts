import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** SHA-256 as hex: how tokens, sessions and CSRF values are stored (never the raw value). */
export function sha256Hex(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

export function hmacSha256Hex(key: Buffer, data: Buffer | string): string {
  return createHmac('sha256', key).update(data).digest('hex');
}

/** Constant-time comparison of two strings; different lengths compare false without leaking where. */
export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  if (x.length !== y.length) {
    timingSafeEqual(x, x);
    return false;
  }
  return timingSafeEqual(x, y);
}

/** A random secret as lowercase hex (`bytes` of entropy). */
export function randomHex(bytes: number): string {
  return randomBytes(bytes).toString('hex');
}

export function randomBase64Url(bytes: number): string {
  return randomBytes(bytes).toString('base64url');
}
