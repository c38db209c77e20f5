import { createCipheriv, createDecipheriv, pbkdf2, randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { AppError } from '@svc/platform';
import { z } from 'zod';

const pbkdf2Async = promisify(pbkdf2);
/** OWASP's 2023 figure for PBKDF2-HMAC-SHA256; slow on purpose, so a stolen bundle resists guessing. */
export const PBKDF2_ITERATIONS = 600_000;
const SALT = 32;
const NONCE = 12;
const TAG = 16;

async function keyFor(passphrase: string, salt: Buffer, iterations: number): Promise<Buffer> {
  return pbkdf2Async(passphrase, salt, iterations, 32, 'sha256');
}

/** base64(salt ‖ nonce ‖ ciphertext ‖ tag), AES-256-GCM under PBKDF2-SHA256(passphrase). */
export async function sealBundle(
  plaintext: string,
  passphrase: string,
  iterations = PBKDF2_ITERATIONS,
): Promise<string> {
  const salt = randomBytes(SALT);
  const nonce = randomBytes(NONCE);
  const cipher = createCipheriv('aes-256-gcm', await keyFor(passphrase, salt, iterations), nonce);
  const ct = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return Buffer.concat([salt, nonce, ct, cipher.getAuthTag()]).toString('base64');
}

const refusal = () =>
  new AppError(
    'bad_request',
    'The bundle could not be opened: the passphrase is wrong or the data is damaged. Nothing was changed.',
  );

export async function openBundle(data: string, passphrase: string, iterations = PBKDF2_ITERATIONS): Promise<string> {
  const raw = Buffer.from(data.trim(), 'base64');
  if (raw.length < SALT + NONCE + TAG + 1) throw refusal();
  const salt = raw.subarray(0, SALT);
  const nonce = raw.subarray(SALT, SALT + NONCE);
  const decipher = createDecipheriv('aes-256-gcm', await keyFor(passphrase, salt, iterations), nonce);
  decipher.setAuthTag(raw.subarray(raw.length - TAG));
  try {
    return Buffer.concat([decipher.update(raw.subarray(SALT + NONCE, raw.length - TAG)), decipher.final()]).toString(
      'utf8',
    );
  } catch {
    throw refusal();
  }
}

const bundledNode = z.object({
  id: z.string(),
  type: z.enum(['hv', 'bak', 'mail']),
  name: z.string().min(1),
  config: z.record(z.string(), z.unknown()),
  secrets: z.object({ password: z.string().optional(), tokenValue: z.string().optional() }),
  source: z.enum(['manual', 'script', 'import']),
  createdAt: z.string(),
  updatedAt: z.string(),
});

/** What an export holds. Versioned so a later svc can read older bundles. */
export const bundleSchema = z.object({
  format: z.literal('svc-config'),
  version: z.literal(1),
  exportedAt: z.string(),
  nodes: z.array(bundledNode),
  settings: z.array(z.object({ key: z.string(), value: z.string() })),
});
export type Bundle = z.infer<typeof bundleSchema>;

export function parseBundle(json: string): Bundle {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    throw refusal();
  }
  const r = bundleSchema.safeParse(value);
  if (!r.success) {
    throw new AppError(
      'bad_request',
      `The bundle is not an svc configuration export: ${r.error.issues[0]?.message}. Nothing was changed.`,
    );
  }
  return r.data;
}
