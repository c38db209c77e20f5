import { createPublicKey, type KeyObject, verify } from 'node:crypto';
import { type LicenseTier, licenseTiers } from '@svc/contract';

/**
 * The licence issuer's Ed25519 public key. Only the issuer holds the private key; tests generate their own
 * pair and pass the public half through AppDeps.licensePublicKey.
 */
export const EMBEDDED_LICENSE_PUBLIC_KEY = `-----BEGIN PUBLIC KEY-----
MCowBQYDK2VwAyEA6SZpa/YpTaSdUyZllzzFPpA9XODbL5U/5K6T3RwpN78=
-----END PUBLIC KEY-----
`;

export interface LicenseClaims {
  lid: string;
  email: string;
  tier: LicenseTier;
  features: string[];
  /** Unix seconds. */
  iat?: number;
  /** Unix seconds; absent means a lifetime licence. */
  exp?: number;
  max_nodes?: number;
  max_guests?: number;
}

export class LicenseKeyError extends Error {}

export function publicKeyFrom(pem: string): KeyObject {
  const key = createPublicKey(pem);
  if (key.asymmetricKeyType !== 'ed25519') throw new Error('The licence public key must be an Ed25519 key.');
  return key;
}

function optionalInt(v: unknown, name: string): number | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0)
    throw new LicenseKeyError(`the ${name} claim is not a whole number`);
  return v;
}

function claimsOf(json: unknown): LicenseClaims {
  if (!json || typeof json !== 'object') throw new LicenseKeyError('the payload is not a JSON object');
  const c = json as Record<string, unknown>;
  for (const k of ['lid', 'email', 'tier'] as const) {
    if (typeof c[k] !== 'string' || c[k] === '') throw new LicenseKeyError(`the ${k} claim is missing`);
  }
  if (!(licenseTiers as readonly string[]).includes(c.tier as string)) {
    throw new LicenseKeyError(`unknown tier ${JSON.stringify(c.tier)} (expected ${licenseTiers.join(', ')})`);
  }
  const features = c.features ?? [];
  if (!Array.isArray(features) || features.some((f) => typeof f !== 'string')) {
    throw new LicenseKeyError('the features claim is not a list of names');
  }
  return {
    lid: c.lid as string,
    email: c.email as string,
    tier: c.tier as LicenseTier,
    features: features as string[],
    iat: optionalInt(c.iat, 'iat'),
    exp: optionalInt(c.exp, 'exp'),
    max_nodes: optionalInt(c.max_nodes, 'max_nodes'),
    max_guests: optionalInt(c.max_guests, 'max_guests'),
  };
}

/** Parses `base64url(payload).base64url(signature)`, Ed25519 over the payload segment; throws with the reason. */
export function decodeLicenseKey(key: string, publicKey: KeyObject): LicenseClaims {
  const parts = key.trim().split('.');
  if (parts.length !== 2 || !parts.every((p) => /^[A-Za-z0-9_-]+$/.test(p))) {
    throw new LicenseKeyError('the key is malformed: expected two base64url parts separated by a dot');
  }
  const [payload, sig] = parts as [string, string];
  const signature = Buffer.from(sig, 'base64url');
  if (signature.length !== 64 || !verify(null, Buffer.from(payload, 'ascii'), publicKey, signature)) {
    throw new LicenseKeyError('the signature does not match: this key was not issued for svc or was altered');
  }
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    throw new LicenseKeyError('the payload is not JSON');
  }
  return claimsOf(json);
}
