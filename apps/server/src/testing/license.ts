import { generateKeyPairSync, type KeyObject, sign } from 'node:crypto';

/** A throwaway licence issuer for tests: its private key lives only in memory. */
export function testLicenseIssuer() {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  return {
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    issue: (claims: Record<string, unknown>, key: KeyObject = privateKey): string => {
      const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
      return `${payload}.${sign(null, Buffer.from(payload), key).toString('base64url')}`;
    },
  };
}
