import type { securityStatus } from '@svc/contract';
import { AppError, badRequest, conflict } from '@svc/platform';
import type { z } from 'zod';
import type { Caller } from '../../platform/http/principal.js';
import type { AreaDeps } from '../area.js';
import type { Actor, AuditArea } from '../audit/index.js';
import type { AuthArea } from '../auth/index.js';
import type { Recovery } from './security.recovery.js';
import type { Setup } from './security.setup.js';
import type { Tokens } from './security.tokens.js';

export function createSecurityService(
  deps: AreaDeps,
  parts: { tokens: Tokens; setup: Setup; recovery: Recovery; oidcEnabled: () => Promise<boolean> },
  auth: AuthArea,
  audit: AuditArea,
) {
  return {
    async getStatus(caller: Caller): Promise<z.input<typeof securityStatus>> {
      const base = {
        hasAuthentication: (await auth.service.getAdmin()) !== undefined,
        setupRequired: parts.setup.setupRequired(),
        authDisabled: parts.recovery.active(),
        recoveryMode: parts.recovery.active(),
        oidcEnabled: await parts.oidcEnabled(),
        authenticated: caller !== null,
      };
      if (!caller) return base;
      return {
        ...base,
        username: caller.username,
        authMethod: caller.kind,
        isAdmin: caller.isAdmin || caller.scopes.includes('*'),
        apiTokenCount: await parts.tokens.count(),
        secureCookies: deps.config.publicUrl?.startsWith('https:') ?? false,
        proxyAuthEnabled: false,
        deploymentType: deps.config.deploymentType,
      };
    },

    async changePassword(caller: Caller, actor: Actor, input: { currentPassword: string; newPassword: string }) {
      if (caller?.kind === 'session' && caller.authMethod === 'oidc') {
        throw badRequest('You signed in with single sign-on: change your password at your identity provider.');
      }
      const target = caller?.kind === 'session' ? caller.username : (await auth.service.getAdmin())?.username;
      if (!target) throw conflict('No administrator is set up yet: finish first-run setup first.');
      if (!(await auth.service.checkPassword(target, input.currentPassword))) {
        throw new AppError('forbidden', 'The current password is wrong.', { field: 'currentPassword' });
      }
      const hash = await auth.service.hashPassword(input.newPassword);
      await deps.db.db.transaction().execute(async (trx) => {
        await auth.service.setPassword(trx, target, hash, caller?.sessionId);
        await audit.record(trx, actor, { event: 'password_changed', success: true, details: `user ${target}` });
      });
      return {
        success: true as const,
        message: 'Password changed; your other sessions were logged out. No restart is needed.',
      };
    },

    async resetLockout(actor: Actor, identifier: string) {
      const cleared = await deps.db.db.transaction().execute(async (trx) => {
        const n = await auth.service.lockout.reset(trx, identifier);
        await audit.record(trx, actor, { event: 'lockout_reset', success: true, details: `identifier ${identifier}` });
        return n;
      });
      return {
        success: true as const,
        message: cleared > 0 ? `Lockout for ${identifier} cleared.` : `${identifier} had no failed logins recorded.`,
      };
    },

    async applyRestart(actor: Actor) {
      if (deps.config.deploymentType !== 'systemd' || !deps.restart) {
        throw conflict(
          `svc runs as a ${deps.config.deploymentType} deployment without a service manager it can ask: restart it by hand (for example docker restart, or stop and start the process). Auth changes stored through the API already apply without a restart.`,
        );
      }
      await deps.db.db
        .transaction()
        .execute((trx) => audit.record(trx, actor, { event: 'restart_requested', success: true }));
      // After the response is written: close() lets in-flight requests finish, then systemd starts svc again.
      setImmediate(() => deps.restart?.());
      return { success: true as const, message: 'svc is restarting under systemd; it will be back in a few seconds.' };
    },
  };
}

export type SecurityService = ReturnType<typeof createSecurityService>;
