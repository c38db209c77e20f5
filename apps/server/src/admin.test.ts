import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type AdminIo, runAdmin } from './admin.js';
import { loadConfig } from './config/index.js';
import { relaxedLimits, setUpAdmin } from './testing/access.js';

function io(stdin: string) {
  const out: string[] = [];
  const value: AdminIo = { out: (t) => void out.push(t), readAll: async () => stdin, prompt: async () => stdin };
  return { io: value, out };
}

describe('svc admin (local recovery commands on the configured database)', () => {
  it('reset-password and create-token work against a SQLite data dir the server then uses', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-admin-'));
    const config = loadConfig({ SVC_DATA_DIR: dataDir, ...relaxedLimits });
    // The file-backed database: run setup through a server on it, then use the CLI.
    const { buildApp } = await import('./app.js');
    const { openServerDatabase, migrateServerDatabase } = await import('./platform/db/index.js');
    const { createMemoryLogger } = await import('@svc/platform');
    const { buildInfo } = await import('./platform/build-info.js');
    const start = async () => {
      const db = openServerDatabase(config);
      await migrateServerDatabase(db);
      const app = await buildApp({ config, db, log: createMemoryLogger().logger, build: buildInfo() });
      return {
        app,
        db,
        config,
        close: async () => {
          await app.close();
          await db.close();
        },
      };
    };
    let srv = await start();
    await setUpAdmin(srv as never);
    await srv.close();

    const short = io('short');
    await expect(runAdmin(config, ['reset-password', '--password-stdin'], short.io)).rejects.toThrow('12');
    const reset = io('a password from the cli\n');
    expect(await runAdmin(config, ['reset-password', '--password-stdin'], reset.io)).toBe(0);
    const bad = io('');
    await expect(runAdmin(config, ['create-token', '--scopes', 'nope'], bad.io)).rejects.toThrow('nope');
    const tok = io('');
    expect(await runAdmin(config, ['create-token', '--name', 'ops', '--scopes', 'settings:read'], tok.io)).toBe(0);
    const raw = tok.out.join('').trim();
    expect(raw).toMatch(/^svc_[0-9a-f]{64}$/);

    srv = await start();
    const login = await srv.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { username: 'admin', password: 'a password from the cli' },
    });
    expect(login.statusCode).toBe(200);
    const list = await srv.app.inject({ method: 'GET', url: '/api/security/tokens', headers: { 'x-api-token': raw } });
    expect(list.statusCode).toBe(200);
    expect(list.json().tokens.map((t: { name: string }) => t.name)).toContain('ops');
    await srv.close();
  });
});
