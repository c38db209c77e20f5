import { X509Certificate } from 'node:crypto';

export interface TlsMaterial {
  key: string;
  cert: string;
  /** SHA-256 of the DER certificate, `AB:CD:...` (the form the real products display). */
  fingerprint: string;
}

/** A fresh self-signed certificate for 127.0.0.1/localhost, made at start-up. */
export async function makeCertificate(host: string): Promise<TlsMaterial> {
  const altNames: Array<{ type: 2 | 7; value?: string; ip?: string }> = [
    { type: 2, value: 'localhost' },
    { type: 7, ip: '127.0.0.1' },
    { type: 7, ip: '::1' },
  ];
  if (host !== '127.0.0.1' && host !== 'localhost' && host !== '::1')
    altNames.push(/^[\d.:]+$/.test(host) ? { type: 7, ip: host } : { type: 2, value: host });
  // Loaded only when TLS is asked for: svc's mock mode runs the simulator without it.
  const { generate } = await import('selfsigned');
  const pems = await generate([{ name: 'commonName', value: 'svc-hv-sim' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    extensions: [{ name: 'subjectAltName', altNames }],
  });
  return { key: pems.private, cert: pems.cert, fingerprint: new X509Certificate(pems.cert).fingerprint256 };
}
