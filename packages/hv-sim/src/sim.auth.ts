import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Kind, TokenCredential, UserCredential } from './types.js';
import { SimError } from './types.js';

/** Product-specific names: ticket prefix, cookie, token header scheme and token secret separator. */
const PRODUCT: Record<Kind, { prefix: string; cookie: string; scheme: string | null; sep: string }> = {
  hv: { prefix: 'PVE', cookie: 'PVEAuthCookie', scheme: 'PVEAPIToken', sep: '=' },
  bak: { prefix: 'PBS', cookie: 'PBSAuthCookie', scheme: 'PBSAPIToken', sep: ':' },
  mail: { prefix: 'PMG', cookie: 'PMGAuthCookie', scheme: null, sep: ':' },
};

export const TICKET_LIFETIME_SEC = 7200;

export interface AuthResult {
  user: string;
  via: 'token' | 'ticket';
}

/**
 * Tickets are `PREFIX:user:HEXTIME::signature` like the real ones, signed with a key derived from the
 * seed and a generation counter: bumping the generation (auth-expiry fault) invalidates every ticket.
 */
export class Auth {
  generation = 0;
  lifetimeSec = TICKET_LIFETIME_SEC;
  readonly product: (typeof PRODUCT)[Kind];

  constructor(
    readonly kind: Kind,
    private readonly seed: number,
    readonly tokens: TokenCredential[],
    readonly users: UserCredential[],
    private readonly nowSec: () => number,
  ) {
    this.product = PRODUCT[kind];
  }

  private sign(text: string): string {
    return createHmac('sha256', `sim-${this.seed}-${this.generation}`).update(text).digest('base64').replace(/=+$/, '');
  }

  issue(user: string): { ticket: string; csrf: string } {
    const hex = this.nowSec().toString(16).toUpperCase().padStart(8, '0');
    const plain = `${this.product.prefix}:${user}:${hex}`;
    return { ticket: `${plain}::${this.sign(plain)}`, csrf: `${hex}:${this.sign(`${hex}:${user}`)}` };
  }

  /** Returns the ticket's user when the signature holds and it is younger than the lifetime. */
  verifyTicket(ticket: string): string | undefined {
    const m = /^([A-Z]{3}):(.+):([0-9A-F]{8})::(.+)$/.exec(ticket);
    if (!m || m[1] !== this.product.prefix) return undefined;
    const plain = `${m[1]}:${m[2]}:${m[3]}`;
    if (!safeEqual(this.sign(plain), m[4]!)) return undefined;
    const age = this.nowSec() - Number.parseInt(m[3]!, 16);
    if (age < -300 || age >= this.lifetimeSec) return undefined;
    return m[2];
  }

  private verifyCsrf(token: string | undefined, user: string): boolean {
    const m = token ? /^([0-9A-F]{8}):(.+)$/.exec(token) : null;
    if (!m) return false;
    const age = this.nowSec() - Number.parseInt(m[1]!, 16);
    return age > -300 && age < this.lifetimeSec && safeEqual(this.sign(`${m[1]}:${user}`), m[2]!);
  }

  /** POST /access/ticket: password login, or renewal with a still-valid ticket as the password. */
  login(username: string, password: string, realm?: string): { user: string; ticket: string; csrf: string } {
    const user = username.includes('@') || !realm ? username : `${username}@${realm}`;
    const known = this.users.some((u) => u.username === user && u.password === password);
    const renewal = !known && this.verifyTicket(password) === user;
    if (!known && !renewal) throw new SimError(401, 'authentication failure');
    return { user, ...this.issue(user) };
  }

  /** Authenticates a request from its headers, like the product's HTTP server does. */
  check(method: string, headers: Record<string, string | string[] | undefined>): AuthResult {
    const authz = headers.authorization;
    if (typeof authz === 'string' && authz.length > 0) return this.checkToken(authz);
    const ticket = readCookie(headers.cookie, this.product.cookie);
    if (!ticket) throw new SimError(401, this.kind === 'bak' ? noCredentials : 'No ticket');
    const user = this.verifyTicket(ticket);
    if (!user)
      throw new SimError(401, this.kind === 'bak' ? 'authentication failed - invalid ticket' : 'invalid ticket');
    if (method !== 'GET' && method !== 'HEAD') {
      const csrf = headers.csrfpreventiontoken;
      if (!this.verifyCsrf(typeof csrf === 'string' ? csrf : undefined, user))
        throw new SimError(401, 'Permission denied - invalid csrf token');
    }
    return { user, via: 'ticket' };
  }

  private checkToken(authz: string): AuthResult {
    const { scheme, sep } = this.product;
    if (!scheme) {
      // PMG::HTTPServer refuses every API token.
      if (/^PMGAPIToken[= ]/.test(authz)) throw new SimError(401, 'API tokens not implemented');
      throw new SimError(401, 'No ticket');
    }
    if (!authz.startsWith(scheme) || (authz[scheme.length] !== '=' && authz[scheme.length] !== ' '))
      throw new SimError(
        401,
        this.kind === 'bak' ? 'authentication failed - invalid authorization header' : 'No ticket',
      );
    const rest = authz.slice(scheme.length + 1).trim();
    // hv splits on the last '=' (the secret is a UUID); bak on ':'.
    const cut = sep === '=' ? rest.lastIndexOf('=') : rest.indexOf(':', rest.indexOf('!'));
    const tokenId = cut > 0 ? rest.slice(0, cut) : rest;
    const secret = cut > 0 ? rest.slice(cut + 1) : '';
    const tok = this.tokens.find((t) => t.tokenId === tokenId);
    if (!tok || !safeEqual(tok.secret, secret))
      throw new SimError(401, this.kind === 'bak' ? 'authentication failed - invalid token' : 'invalid token value!');
    return { user: tokenId, via: 'token' };
  }
}

const noCredentials = 'authentication failed - no authentication credentials provided.';

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export function readCookie(header: string | string[] | undefined, name: string): string | undefined {
  const raw = Array.isArray(header) ? header.join('; ') : header;
  if (!raw) return undefined;
  for (const part of raw.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      try {
        return decodeURIComponent(part.slice(eq + 1).trim());
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

/** Parses `USER@REALM!ID=SECRET` (or `:SECRET`) from the command line. */
export function parseTokenSpec(spec: string): TokenCredential {
  const bang = spec.indexOf('!');
  const cut = spec.slice(bang + 1).search(/[=:]/);
  if (bang < 1 || cut < 1) throw new Error(`--token must look like USER@REALM!ID=SECRET, got '${spec}'`);
  return { tokenId: spec.slice(0, bang + 1 + cut), secret: spec.slice(bang + 2 + cut) };
}
