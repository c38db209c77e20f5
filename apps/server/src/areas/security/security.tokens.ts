import { randomUUID } from 'node:crypto';
import type { apiTokenRecord, Scope } from '@svc/contract';
import { AppError, notFound } from '@svc/platform';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import { randomHex, safeEqual, sha256Hex } from '../../platform/crypto/index.js';
import { type Database, DEFAULT_ORG } from '../../platform/db/index.js';
import type { Caller, Principal } from '../../platform/http/principal.js';
import type { AreaDeps } from '../area.js';
import type { Actor, AuditArea } from '../audit/index.js';
import type { SecurityStore, TokenRecord } from './security.store.js';

/** lastUsedAt is written at most once a minute per token, so reads do not all turn into writes. */
const TOUCH_GRANULARITY_MS = 60_000;

export function newRawToken(): string {
  return `svc_${randomHex(32)}`;
}

function dto(r: TokenRecord): z.input<typeof apiTokenRecord> {
  return {
    id: r.id,
    name: r.name,
    scopes: r.scopes,
    prefix: r.prefix,
    suffix: r.suffix,
    createdAt: new Date(r.createdAt).toISOString(),
    lastUsedAt: r.lastUsedAt === null ? null : new Date(r.lastUsedAt).toISOString(),
  };
}

export function createTokens(deps: AreaDeps, store: SecurityStore, audit: AuditArea) {
  const tx = <T>(fn: (trx: Kysely<Database>) => Promise<T>) => deps.db.db.transaction().execute(fn);

  /** Stores a token's hash (never the raw value) inside the caller's transaction. */
  async function insert(
    trx: Kysely<Database>,
    raw: string,
    o: { name: string; scopes: readonly Scope[]; primary: boolean; by: string },
  ): Promise<TokenRecord> {
    const rec: TokenRecord = {
      id: randomUUID(),
      name: o.name,
      scopes: [...new Set(o.scopes)],
      prefix: raw.slice(0, 8),
      suffix: raw.slice(-4),
      isPrimary: o.primary,
      createdAt: deps.clock.now(),
      lastUsedAt: null,
    };
    await store.insertToken(trx, {
      id: rec.id,
      org_id: DEFAULT_ORG,
      name: rec.name,
      token_hash: sha256Hex(raw),
      prefix: rec.prefix,
      suffix: rec.suffix,
      scopes: JSON.stringify(rec.scopes),
      is_primary: o.primary ? 1 : 0,
      created_by: o.by,
      created_at: rec.createdAt,
      last_used_at: null,
    });
    return rec;
  }

  async function lookup(raw: string): Promise<TokenRecord | undefined> {
    const hash = sha256Hex(raw);
    const rec = await store.findTokenByHash(hash);
    // The index finds the row; the constant-time check keeps the comparison itself from leaking.
    return rec && safeEqual(rec.hash, hash) ? rec : undefined;
  }

  return {
    insert,

    async authenticate(raw: string): Promise<Principal | null> {
      const rec = await lookup(raw);
      if (!rec) return null;
      const now = deps.clock.now();
      if (rec.lastUsedAt === null || now - rec.lastUsedAt >= TOUCH_GRANULARITY_MS) await store.touchToken(rec.id, now);
      return {
        kind: 'token',
        username: `token:${rec.name}`,
        isAdmin: false,
        scopes: rec.scopes,
        orgId: DEFAULT_ORG,
        tokenId: rec.id,
      };
    },

    async listTokens() {
      return { tokens: (await store.listTokens()).map(dto) };
    },

    async createToken(caller: Caller, actor: Actor, input: { name: string; scopes: Scope[] }) {
      // A token may only hand out scopes it holds itself, so a narrow token cannot mint a wider one.
      if (caller?.kind === 'token' && !caller.scopes.includes('*')) {
        const extra = input.scopes.filter((s) => !caller.scopes.includes(s));
        if (extra.length > 0) {
          throw new AppError('forbidden', `This token cannot grant scopes it does not hold: ${extra.join(', ')}.`, {
            requiredScopes: extra,
          });
        }
      }
      const raw = newRawToken();
      const rec = await tx(async (trx) => {
        const r = await insert(trx, raw, { name: input.name, scopes: input.scopes, primary: false, by: actor.user });
        await audit.record(trx, actor, {
          event: 'token_created',
          success: true,
          details: `token ${r.id} "${r.name}" scopes ${r.scopes.join(',')}`,
        });
        return r;
      });
      return { token: raw, record: dto(rec) };
    },

    async revokeToken(actor: Actor, id: string): Promise<void> {
      await tx(async (trx) => {
        const gone = await store.deleteToken(trx, id);
        if (!gone) throw notFound(`API token ${id}`);
        await audit.record(trx, actor, {
          event: 'token_revoked',
          success: true,
          details: `token ${id} "${gone.name}"`,
        });
      });
    },

    async regenerateToken(actor: Actor) {
      const raw = newRawToken();
      await tx(async (trx) => {
        await store.deletePrimaryTokens(trx);
        const r = await insert(trx, raw, { name: 'primary', scopes: ['*'], primary: true, by: actor.user });
        await audit.record(trx, actor, { event: 'token_regenerated', success: true, details: `token ${r.id}` });
      });
      return {
        success: true,
        token: raw,
        deploymentType: deps.config.deploymentType,
        requiresRestart: false,
        message: 'A new full-access API token replaced the previous primary token. Copy it now: it is not shown again.',
      };
    },

    async validateToken(raw: string) {
      const rec = await lookup(raw);
      return rec
        ? { valid: true, message: `Valid API token "${rec.name}" with scopes ${rec.scopes.join(', ')}.` }
        : { valid: false, message: 'Not a valid API token (unknown or revoked).' };
    },

    count: () => store.countTokens(),
  };
}

export type Tokens = ReturnType<typeof createTokens>;
