import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Reads a random key kept in a file, creating it (mode 0600) on first use. The file holds base64 so an
 * operator can back it up as text. A file of the wrong size is refused rather than silently replaced:
 * replacing it would make everything encrypted under the old key unreadable.
 */
export function loadOrCreateKeyFile(path: string, bytes = 32): Buffer {
  if (existsSync(path)) {
    const key = Buffer.from(readFileSync(path, 'utf8').trim(), 'base64');
    if (key.length !== bytes) {
      throw new Error(`The key file ${path} does not hold ${bytes} bytes of base64; restore it from a backup.`);
    }
    if ((statSync(path).mode & 0o077) !== 0) chmodSync(path, 0o600);
    return key;
  }
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const key = randomBytes(bytes);
  writeFileSync(path, `${key.toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  return key;
}
