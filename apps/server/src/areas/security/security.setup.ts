import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { quickSetupBody } from '@svc/contract';
import { AppError } from '@svc/platform';
import type { z } from 'zod';
import { randomHex, safeEqual, sha256Hex } from '../../platform/crypto/index.js';
import type { Caller } from '../../platform/http/principal.js';
import type { AreaDeps } from '../area.js';
import type { Actor, AuditArea } from '../audit/index.js';
import type { AuthArea } from '../auth/index.js';
import type { SecurityStore } from './security.store.js';
import type { Tokens } from './security.tokens.js';

export type QuickSetupInput = z.infer<typeof quickSetupBody>;

export function createSetup(deps: AreaDeps, store: SecurityStore, tokens: Tokens, auth: AuthArea, audit: AuditArea) {
  const file = join(deps.config.dataDir, '.bootstrap_token');

  function readBootstrap(): string | undefined {
    if (!existsSync(file)) return undefined;
    return readFileSync(file, 'utf8').trim() || undefined;
  }

  function bootstrapValid(given: string | undefined): boolean {
    const expected = readBootstrap();
    if (!given || !expected) return false;
    return safeEqual(sha256Hex(given.trim()), sha256Hex(expected));
  }

  function setupUrl(): string {
    const base =
      deps.config.publicUrl ??
      `http://${deps.config.host === '0.0.0.0' ? 'localhost' : deps.config.host}:${deps.config.port}`;
    return `${base.replace(/\/$/, '')}/`;
  }

  return {
    /** At start-up: with no administrator, make sure a bootstrap token exists and say where to use it. */
    async prepareFirstRun(): Promise<void> {
      if (await auth.service.getAdmin()) {
        rmSync(file, { force: true });
        return;
      }
      let token = readBootstrap();
      if (!token) {
        token = randomHex(24);
        writeFileSync(file, `${token}\n`, { mode: 0o600 });
      }
      deps.log.warn(
        { file, url: setupUrl() },
        `svc has no administrator yet. Finish first-run setup at ${setupUrl()} with the bootstrap token ${token} (also in ${file}).`,
      );
    },

    setupRequired: () => existsSync(file),

    assertBootstrap(given: string | undefined): void {
      if (!bootstrapValid(given)) {
        throw new AppError(
          'unauthorized',
          `The bootstrap token is missing or wrong; it is in ${file} and in the start-up log.`,
        );
      }
    },

    async quickSetup(caller: Caller, actor: Actor, headerToken: string | undefined, input: QuickSetupInput) {
      const admin = await auth.service.getAdmin();
      const privileged =
        caller !== null &&
        ((caller.kind === 'session' && caller.isAdmin) || caller.kind === 'recovery' || caller.scopes.includes('*'));
      const viaBootstrap = bootstrapValid(headerToken ?? input.setupToken);
      if (admin && !privileged) {
        throw new AppError(
          'unauthorized',
          'svc is already set up. Log in as the administrator and send force: true to run setup again.',
        );
      }
      if (admin && !input.force) {
        return {
          success: true as const,
          skipped: true,
          message: 'svc is already set up; send force: true to replace the administrator.',
        };
      }
      if (!admin && !viaBootstrap && !privileged) {
        throw new AppError(
          'unauthorized',
          `A valid bootstrap token is required (header X-Setup-Token); it is in ${file}.`,
        );
      }
      const hash = await auth.service.hashPassword(input.password);
      await deps.db.db.transaction().execute(async (trx) => {
        const now = deps.clock.now();
        await auth.service.replaceAdmin(trx, input.username, hash);
        if (input.apiToken) {
          await store.deletePrimaryTokens(trx);
          await tokens.insert(trx, input.apiToken, {
            name: 'primary',
            scopes: ['*'],
            primary: true,
            by: input.username,
          });
        }
        await store.writeSetting(trx, 'ui.darkMode', input.darkMode, now);
        await store.writeSetting(trx, 'notifications.enabled', input.enableNotifications, now);
        await audit.record(trx, actor, {
          event: 'quick_setup',
          success: true,
          details: `administrator ${input.username}${input.apiToken ? ', full-access API token stored' : ''}${admin ? ', forced' : ''}`,
        });
      });
      rmSync(file, { force: true });
      return { success: true as const, skipped: false, message: `Setup complete: log in as ${input.username}.` };
    },
  };
}

export type Setup = ReturnType<typeof createSetup>;
