import { AppError } from '@svc/platform';
import type { Kysely } from 'kysely';
import { randomHex, sha256Hex } from '../../platform/crypto/index.js';
import { type Database, DEFAULT_ORG } from '../../platform/db/index.js';
import type { AuthRequest, Principal } from '../../platform/http/principal.js';
import type { AreaDeps } from '../area.js';
import type { Actor, AuditArea } from '../audit/index.js';
import type { SecurityStore } from './security.store.js';

const TOKEN_MS = 15 * 60_000;
const MODE_KEY = 'security.recoveryMode';

export interface RecoveryRequest {
  direct: boolean;
  headers: Record<string, string | string[] | undefined>;
}

function header(h: RecoveryRequest['headers'], name: string): string | undefined {
  const v = h[name];
  return Array.isArray(v) ? v[0] : v;
}

/** A page on another site must not drive recovery through a browser running on the svc host. */
function assertSameSite(h: RecoveryRequest['headers']): void {
  const site = header(h, 'sec-fetch-site');
  const origin = header(h, 'origin');
  let foreign = site === 'cross-site';
  if (origin && origin !== 'null') {
    try {
      foreign ||= new URL(origin).host !== header(h, 'host');
    } catch {
      foreign = true;
    }
  }
  if (origin === 'null') foreign = true;
  if (foreign) throw new AppError('forbidden', 'Recovery requests from another web site are refused.');
}

const recoveryPrincipal: Principal = {
  kind: 'recovery',
  username: 'recovery',
  isAdmin: true,
  scopes: ['*'],
  orgId: DEFAULT_ORG,
};

export function createRecovery(deps: AreaDeps, store: SecurityStore, audit: AuditArea) {
  let active = false;
  const tx = <T>(fn: (trx: Kysely<Database>) => Promise<T>) => deps.db.db.transaction().execute(fn);

  async function tokenValid(h: RecoveryRequest['headers']): Promise<boolean> {
    const raw = header(h, 'x-recovery-token');
    return raw ? store.recoveryTokenValid(sha256Hex(raw.trim()), deps.clock.now()) : false;
  }

  async function assertAllowed(req: RecoveryRequest): Promise<void> {
    assertSameSite(req.headers);
    if (req.direct || (await tokenValid(req.headers))) return;
    throw new AppError(
      'forbidden',
      'Recovery is available only from the svc host itself (localhost) or with a valid X-Recovery-Token header.',
    );
  }

  async function setMode(actor: Actor, on: boolean): Promise<void> {
    await tx(async (trx) => {
      await store.writeSetting(trx, MODE_KEY, { enabled: on, since: deps.clock.now() }, deps.clock.now());
      if (!on) await store.deleteRecoveryTokens(trx);
      await audit.record(trx, actor, { event: on ? 'recovery_auth_disabled' : 'recovery_auth_enabled', success: true });
    });
    active = on;
    if (on)
      deps.log.warn('RECOVERY MODE: authentication is disabled for requests from localhost or with a recovery token.');
    else deps.log.warn('Recovery mode ended: authentication is enforced again.');
  }

  return {
    async load(): Promise<void> {
      active = (await store.readSetting<{ enabled: boolean }>(MODE_KEY))?.enabled === true;
      if (active)
        deps.log.warn('RECOVERY MODE is on: authentication is disabled for localhost. End it with enable_auth.');
    },
    active: () => active,

    /** While recovery mode is on, loopback callers (or holders of a recovery token) act as administrator. */
    principal(req: AuthRequest): Principal | null | Promise<Principal | null> {
      if (!active) return null;
      if (req.direct) return recoveryPrincipal;
      return tokenValid(req.headers).then((ok) => (ok ? recoveryPrincipal : null));
    },

    async getStatus(req: RecoveryRequest) {
      await assertAllowed(req);
      return {
        recovery_mode: active,
        message: active
          ? 'Recovery mode is ON: authentication is disabled for localhost. Send {"action":"enable_auth"} when done.'
          : 'Recovery mode is off.',
      };
    },

    async act(req: RecoveryRequest, actor: Actor, action: 'generate_token' | 'disable_auth' | 'enable_auth') {
      if (action === 'generate_token') {
        assertSameSite(req.headers);
        if (!req.direct)
          throw new AppError(
            'forbidden',
            'A recovery token can be generated only from the svc host itself (localhost).',
          );
        const raw = randomHex(32);
        const now = deps.clock.now();
        await tx(async (trx) => {
          await store.insertRecoveryToken(trx, sha256Hex(raw), now, now + TOKEN_MS);
          await audit.record(trx, actor, {
            event: 'recovery_token_generated',
            success: true,
            details: 'valid 15 minutes',
          });
        });
        return {
          success: true as const,
          token: raw,
          expires_in_minutes: TOKEN_MS / 60_000,
          recovery_mode: active,
          message: 'Send it as header X-Recovery-Token within 15 minutes. It is shown only once.',
        };
      }
      await assertAllowed(req);
      await setMode(actor, action === 'disable_auth');
      return {
        success: true as const,
        recovery_mode: active,
        message: active
          ? 'Authentication is DISABLED for localhost and recovery-token holders. Every response says so in X-SVC-Auth-Disabled. Send enable_auth when done.'
          : 'Authentication is enforced again.',
      };
    },
  };
}

export type Recovery = ReturnType<typeof createRecovery>;
