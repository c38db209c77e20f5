import { type Feature, features as knownFeatures, type licenseFeatures, type licenseStatus } from '@svc/contract';
import { badRequest } from '@svc/platform';
import type { z } from 'zod';
import type { AreaDeps } from '../area.js';
import type { Actor, AuditArea } from '../audit/index.js';
import { decodeLicenseKey, type LicenseClaims, LicenseKeyError, publicKeyFrom } from './license.key.js';
import type { LicenseStore } from './license.store.js';
import { GRACE_DAYS, tierFeatures, UPGRADE_URL } from './license.tiers.js';

type Status = z.input<typeof licenseStatus>;
const DAY_MS = 86_400_000;
const PURPOSE = 'license.key';

export function createLicenseService(deps: AreaDeps, store: LicenseStore, audit: AuditArea) {
  const publicKey = publicKeyFrom(deps.licensePublicKey);
  let active: LicenseClaims | null = null;

  function status(): Status {
    const now = deps.clock.now();
    const none: Status = {
      valid: false,
      state: 'none',
      tier: 'community',
      licenseId: null,
      email: null,
      expires_at: null,
      is_lifetime: false,
      days_remaining: 0,
      features: [...tierFeatures.community],
      max_nodes: null,
      max_guests: null,
      in_grace_period: false,
      grace_period_end: null,
    };
    if (!active) return none;
    const exp = active.exp === undefined ? undefined : active.exp * 1000;
    const graceEnd = exp === undefined ? undefined : exp + GRACE_DAYS * DAY_MS;
    const state =
      exp === undefined || now < exp ? 'active' : graceEnd !== undefined && now < graceEnd ? 'grace' : 'expired';
    const valid = state !== 'expired';
    return {
      valid,
      state,
      tier: valid ? active.tier : 'community',
      licenseId: active.lid,
      email: active.email,
      expires_at: exp === undefined ? null : new Date(exp).toISOString(),
      is_lifetime: exp === undefined,
      days_remaining: exp === undefined ? 0 : Math.max(0, Math.ceil((exp - now) / DAY_MS)),
      features: valid ? [...new Set([...tierFeatures[active.tier], ...active.features])] : [...tierFeatures.community],
      max_nodes: active.max_nodes ?? null,
      max_guests: active.max_guests ?? null,
      in_grace_period: state === 'grace',
      grace_period_end: graceEnd === undefined ? null : new Date(graceEnd).toISOString(),
    };
  }

  return {
    /** Reads the stored key at start-up; a key that no longer verifies leaves Community features. */
    async load(): Promise<void> {
      const row = await store.get();
      if (!row) return;
      try {
        active = decodeLicenseKey(deps.secrets.open(row.sealed, PURPOSE), publicKey);
      } catch (err) {
        deps.log.error(
          { err: (err as Error).message },
          'the stored licence key could not be loaded; running with Community features',
        );
      }
    },

    /** Synchronous, for the access gate: the licence is cached in memory. */
    hasFeature: (f: Feature): boolean => status().features.includes(f),
    getStatus: status,

    getFeatures(): z.input<typeof licenseFeatures> {
      const s = status();
      return {
        license_status: s.state,
        tier: s.tier,
        features: Object.fromEntries(knownFeatures.map((f) => [f, s.features.includes(f)])),
        upgrade_url: UPGRADE_URL,
      };
    },

    async activate(actor: Actor, key: string) {
      let claims: LicenseClaims;
      try {
        claims = decodeLicenseKey(key, publicKey);
      } catch (err) {
        if (err instanceof LicenseKeyError)
          throw badRequest(`The licence key was refused: ${err.message}.`, { field: 'license_key' });
        throw err;
      }
      if (claims.exp !== undefined && claims.exp * 1000 <= deps.clock.now()) {
        throw badRequest(`The licence key was refused: it expired on ${new Date(claims.exp * 1000).toISOString()}.`, {
          field: 'license_key',
        });
      }
      await deps.db.db.transaction().execute(async (trx) => {
        await store.put(trx, deps.secrets.seal(key.trim(), PURPOSE), deps.clock.now());
        await audit.record(trx, actor, {
          event: 'license_activated',
          success: true,
          details: `licence ${claims.lid} tier ${claims.tier} for ${claims.email}`,
        });
      });
      active = claims;
      return { success: true as const, message: `Licence ${claims.lid} (${claims.tier}) is active.`, status: status() };
    },

    async clear(actor: Actor) {
      await deps.db.db.transaction().execute(async (trx) => {
        const had = await store.remove(trx);
        await audit.record(trx, actor, {
          event: 'license_cleared',
          success: true,
          details: had ? `licence ${active?.lid ?? '(unreadable)'}` : 'no licence was active',
        });
      });
      active = null;
      return { success: true as const, status: status() };
    },
  };
}

export type LicenseService = ReturnType<typeof createLicenseService>;
