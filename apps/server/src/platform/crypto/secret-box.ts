import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

export interface SecretBox {
  /** Encrypts text; `purpose` binds the ciphertext to its use so one secret cannot stand in for another. */
  seal(plaintext: string, purpose: string): string;
  /** Decrypts what `seal` produced with the same purpose; throws when the data or key do not match. */
  open(sealed: string, purpose: string): string;
}

const PREFIX = 'v1:';

/** AES-256-GCM under a sub-key derived (HKDF-SHA256) from the instance key; output `v1:` + base64(nonce‖ct‖tag). */
export function createSecretBox(masterKey: Buffer): SecretBox {
  const key = Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), 'svc secret box v1', 32));
  return {
    seal(plaintext, purpose) {
      const nonce = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, nonce);
      cipher.setAAD(Buffer.from(purpose));
      const ct = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return PREFIX + Buffer.concat([nonce, ct, cipher.getAuthTag()]).toString('base64');
    },
    open(sealed, purpose) {
      if (!sealed.startsWith(PREFIX)) throw new Error('not a sealed secret');
      const raw = Buffer.from(sealed.slice(PREFIX.length), 'base64');
      if (raw.length < 28) throw new Error('sealed secret is truncated');
      const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
      decipher.setAAD(Buffer.from(purpose));
      decipher.setAuthTag(raw.subarray(raw.length - 16));
      return Buffer.concat([decipher.update(raw.subarray(12, raw.length - 16)), decipher.final()]).toString('utf8');
    },
  };
}
