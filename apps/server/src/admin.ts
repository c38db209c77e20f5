import { join } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { scopes as knownScopes, type Scope } from '@svc/contract';
import { createLogger, systemClock } from '@svc/platform';
import { createAreas } from './areas/index.js';
import { EMBEDDED_LICENSE_PUBLIC_KEY } from './areas/license/index.js';
import { newRawToken } from './areas/security/index.js';
import { collectorFactories, PollManager } from './collectors/index.js';
import type { Config } from './config/index.js';
import { buildInfo } from './platform/build-info.js';
import { createSecretBox, loadOrCreateKeyFile } from './platform/crypto/index.js';
import { migrateServerDatabase, openServerDatabase } from './platform/db/index.js';
import { systemTimers } from './platform/jobs/index.js';
import { LiveState } from './state/index.js';

export interface AdminIo {
  out(text: string): void;
  /** All of standard input (for --password-stdin), or one typed line after a prompt. */
  readAll(): Promise<string>;
  prompt(question: string): Promise<string>;
}

export const adminUsage = `svc admin reset-password [--username NAME] [--password-stdin]
svc admin create-token --name NAME --scopes SCOPE[,SCOPE...]`;

function flag(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
}

/** Local recovery commands for operators locked out of the UI; they open the configured database directly. */
export async function runAdmin(config: Config, args: string[], io: AdminIo): Promise<number> {
  const [command, ...rest] = args;
  const handle = openServerDatabase(config);
  try {
    await migrateServerDatabase(handle);
    const state = new LiveState({ clock: systemClock });
    const areas = createAreas({
      config,
      db: handle,
      log: createLogger({ level: 'warn', name: 'svc-admin' }),
      clock: systemClock,
      build: buildInfo(),
      openapi: () => ({}),
      state,
      // The CLI has no live clients to tell.
      broadcast: () => undefined,
      timers: systemTimers,
      polls: new PollManager({ clock: systemClock, timers: systemTimers, factories: collectorFactories, sink: state }),
      secrets: createSecretBox(loadOrCreateKeyFile(join(config.dataDir, '.encryption.key'))),
      licensePublicKey: EMBEDDED_LICENSE_PUBLIC_KEY,
    });
    const actor = { user: 'cli', ip: 'local', path: `svc admin ${command ?? ''}`.trim() };
    if (command === 'reset-password') {
      const username = flag(rest, '--username') ?? (await areas.auth.service.getAdmin())?.username;
      if (!username) throw new Error('There is no administrator yet: finish first-run setup in the browser instead.');
      const password = rest.includes('--password-stdin')
        ? (await io.readAll()).replace(/\r?\n$/, '')
        : await io.prompt(`New password for ${username} (at least 12 characters): `);
      if (password.length < 12) throw new Error('The password must have at least 12 characters.');
      const hash = await areas.auth.service.hashPassword(password);
      await handle.db.transaction().execute(async (trx) => {
        if (!(await areas.auth.service.setPassword(trx, username, hash)))
          throw new Error(`There is no user ${username}.`);
        await areas.auth.service.lockout.reset(trx, username);
        await areas.audit.record(trx, actor, {
          event: 'password_changed',
          success: true,
          details: `user ${username}, reset from the command line`,
        });
      });
      io.out(`Password of ${username} changed; their sessions were logged out and any lockout cleared.\n`);
      return 0;
    }
    if (command === 'create-token') {
      const name = flag(rest, '--name') ?? 'cli';
      const wanted = (flag(rest, '--scopes') ?? '').split(',').filter(Boolean);
      const unknown = wanted.filter((s) => !(knownScopes as readonly string[]).includes(s));
      if (wanted.length === 0 || unknown.length > 0) {
        throw new Error(
          `--scopes needs known scope names (unknown: ${unknown.join(', ') || 'none given'}); known: ${knownScopes.join(', ')}.`,
        );
      }
      const raw = newRawToken();
      await handle.db.transaction().execute(async (trx) => {
        const rec = await areas.security.tokens.insert(trx, raw, {
          name,
          scopes: wanted as Scope[],
          primary: false,
          by: 'cli',
        });
        await areas.audit.record(trx, actor, {
          event: 'token_created',
          success: true,
          details: `token ${rec.id} "${name}" scopes ${wanted.join(',')}, from the command line`,
        });
      });
      io.out(`${raw}\n`);
      return 0;
    }
    io.out(`${adminUsage}\n`);
    return 2;
  } finally {
    await handle.close();
  }
}

export const processIo: AdminIo = {
  out: (text) => void process.stdout.write(text),
  async readAll() {
    const chunks: Buffer[] = [];
    for await (const c of process.stdin) chunks.push(c as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  },
  async prompt(question) {
    const rl = createInterface({ input: process.stdin, output: process.stdout });
    try {
      return await rl.question(question);
    } finally {
      rl.close();
    }
  },
};
