import { randomFillSync } from 'node:crypto';

// Random bytes are drawn 4 KiB at a time: one call per 256 ids instead of one each.
const pool = Buffer.alloc(4096);
let used = pool.length;
let lastMs = -1;
let seq = 0;

/**
 * A UUID version 7 (RFC 9562): 48 bits of Unix milliseconds, a 12-bit counter within the millisecond, then 62
 * random bits. Ids made later sort later (as text too), so rows keyed by them are appended to their index
 * instead of landing on a random page of it, which a random UUID (v4) does for every row. Still unguessable
 * enough for row ids; not meant as a secret.
 */
export function timeOrderedId(nowMs: number = Date.now()): string {
  if (nowMs > lastMs) {
    lastMs = nowMs;
    seq = 0;
  } else if (++seq > 0xfff) {
    // More than 4,096 ids in one millisecond, or the clock went back: borrow the next millisecond.
    lastMs++;
    seq = 0;
  }
  if (used === pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  const b = pool.subarray(used, used + 16);
  used += 16;
  b.writeUIntBE(lastMs, 0, 6);
  b[6] = 0x70 | (seq >> 8);
  b[7] = seq & 0xff;
  b[8] = 0x80 | (b[8]! & 0x3f);
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
