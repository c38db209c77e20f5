import { hmacSha256Hex, safeEqual } from '../../platform/crypto/index.js';

export interface SignedFields {
  id: string;
  timestamp: string;
  event: string;
  user: string;
  ip: string;
  path: string;
  success: boolean;
  details: string;
}

const DOMAIN = 'svc.audit.event\0v1\0';

/** Length-prefixed fields, so no choice of values can make two different events serialize alike. */
export function canonical(f: SignedFields): Buffer {
  const parts = [f.id, f.timestamp, f.event, f.user, f.ip, f.path, f.success ? '1' : '0', f.details];
  const chunks: Buffer[] = [Buffer.from(DOMAIN)];
  for (const p of parts) {
    const bytes = Buffer.from(p, 'utf8');
    const len = Buffer.alloc(8);
    len.writeBigUInt64BE(BigInt(bytes.length));
    chunks.push(len, bytes);
  }
  return Buffer.concat(chunks);
}

export function sign(key: Buffer, f: SignedFields): string {
  return `v1:${hmacSha256Hex(key, canonical(f))}`;
}

export function verify(key: Buffer, f: SignedFields, signature: string): boolean {
  return safeEqual(sign(key, f), signature);
}
