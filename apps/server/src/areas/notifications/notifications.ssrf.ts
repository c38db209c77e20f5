import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';

/** A refused target: a 400 on save and test, a permanent failure at send time. */
export class SsrfError extends Error {
  override name = 'SsrfError';
}

interface Range {
  v: 4 | 6;
  base: bigint;
  bits: number;
}

function toBig(ip: string): { v: 4 | 6; n: bigint } {
  if (isIP(ip) === 4) return { v: 4, n: ip.split('.').reduce((a, p) => (a << 8n) | BigInt(Number(p)), 0n) };
  const [head, tail] = ip.includes('::') ? ip.split('::') : [ip, undefined];
  const parts = (s: string | undefined) => (s ? s.split(':') : []);
  let h = parts(head);
  let t = parts(tail);
  // An IPv4 tail (::ffff:1.2.3.4) counts as two groups.
  const fix = (g: string[]) =>
    g.flatMap((x) => {
      if (!x.includes('.')) return [x];
      const n = Number(toBig(x).n);
      return [(n >>> 16).toString(16), (n & 0xffff).toString(16)];
    });
  h = fix(h);
  t = fix(t);
  const groups = tail === undefined ? h : [...h, ...Array(8 - h.length - t.length).fill('0'), ...t];
  return { v: 6, n: groups.reduce((a, g) => (a << 16n) | BigInt(Number.parseInt(g || '0', 16)), 0n) };
}

export function parseCidr(cidr: string): Range {
  const [ip = '', bits] = cidr.split('/');
  const { v, n } = toBig(ip);
  const max = v === 4 ? 32 : 128;
  const b = bits === undefined ? max : Number(bits);
  const shift = BigInt(max - b);
  return { v, base: (n >> shift) << shift, bits: b };
}

function inRange(ip: string, r: Range): boolean {
  const { v, n } = toBig(ip);
  if (v !== r.v) return false;
  const shift = BigInt((v === 4 ? 32 : 128) - r.bits);
  return n >> shift === r.base >> shift;
}

// Loopback, private, shared (CGNAT), link-local (cloud metadata lives at 169.254.169.254), benchmark,
// documentation and unspecified ranges, for both families, plus IPv4-mapped IPv6.
const blocked = [
  '0.0.0.0/8',
  '10.0.0.0/8',
  '100.64.0.0/10',
  '127.0.0.0/8',
  '169.254.0.0/16',
  '172.16.0.0/12',
  '192.0.0.0/24',
  '192.0.2.0/24',
  '192.168.0.0/16',
  '198.18.0.0/15',
  '198.51.100.0/24',
  '203.0.113.0/24',
  '224.0.0.0/4',
  '240.0.0.0/4',
  '::/128',
  '::1/128',
  'fc00::/7',
  'fe80::/10',
  'fd00:ec2::254/128',
].map(parseCidr);

const metadataHosts = new Set(['metadata.google.internal', 'metadata.goog', 'metadata.azure.com', 'metadata']);

export interface TargetGuard {
  /** Whether svc may connect to this address. */
  allowedAddress(ip: string): boolean;
  /** Checks a URL: scheme, credentials, metadata names, and every address its host resolves to. */
  checkUrl(url: string): Promise<void>;
  /** A dns.lookup that only answers allowed addresses: the connect-time re-check (no DNS rebinding). */
  lookup: typeof dnsLookup;
}

export function createTargetGuard(allowCidrs: readonly string[]): TargetGuard {
  const allow = allowCidrs.map(parseCidr);
  // Every send to a literal address asks again; the range checks parse BigInts, so answers are remembered.
  const verdicts = new Map<string, boolean>();
  const allowedAddress = (ip: string): boolean => {
    const known = verdicts.get(ip);
    if (known !== undefined) return known;
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip)?.[1];
    const addr = mapped ?? ip;
    const ok = allow.some((r) => inRange(addr, r)) || !blocked.some((r) => inRange(addr, r));
    if (verdicts.size >= 1024) verdicts.clear();
    verdicts.set(ip, ok);
    return ok;
  };
  const resolveAll = (host: string) =>
    new Promise<LookupAddress[]>((res, rej) =>
      dnsLookup(host, { all: true, verbatim: true }, (err, addrs) => (err ? rej(err) : res(addrs))),
    );

  async function checkUrl(raw: string): Promise<void> {
    let u: URL;
    try {
      u = new URL(raw);
    } catch {
      throw new SsrfError(`invalid URL: ${JSON.stringify(raw.slice(0, 200))}`);
    }
    if (u.protocol !== 'http:' && u.protocol !== 'https:')
      throw new SsrfError(`scheme ${u.protocol} is not allowed; use http or https`);
    if (u.username || u.password) throw new SsrfError('credentials in the URL are not allowed; use a header');
    const host = u.hostname.replace(/^\[|\]$/g, '').toLowerCase();
    if (!host) throw new SsrfError('the URL has no host');
    if (metadataHosts.has(host)) throw new SsrfError(`${host} is a cloud metadata service`);
    const addrs = isIP(host)
      ? [host]
      : await resolveAll(host).then(
          (a) => a.map((x) => x.address),
          (err: Error) => {
            throw new SsrfError(`cannot resolve ${host}: ${err.message}`);
          },
        );
    const bad = addrs.find((a) => !allowedAddress(a));
    if (bad) {
      throw new SsrfError(
        `${host} resolves to ${bad}, a loopback, private, link-local or metadata address; allow it with SVC_WEBHOOK_ALLOW_CIDRS`,
      );
    }
  }

  const lookup = ((hostname: string, options: unknown, callback: unknown) => {
    const cb = (typeof options === 'function' ? options : callback) as (...a: unknown[]) => void;
    const opts = (typeof options === 'object' && options !== null ? options : {}) as { all?: boolean };
    dnsLookup(hostname, { all: true, verbatim: true }, (err, addrs) => {
      if (err) return cb(err);
      const ok = addrs.filter((a) => allowedAddress(a.address));
      if (ok.length === 0) {
        return cb(
          new SsrfError(`${hostname} resolves only to refused addresses (${addrs.map((a) => a.address).join(', ')})`),
        );
      }
      if (opts.all) return cb(null, ok);
      return cb(null, ok[0]!.address, ok[0]!.family);
    });
  }) as typeof dnsLookup;

  return { allowedAddress, checkUrl, lookup };
}
