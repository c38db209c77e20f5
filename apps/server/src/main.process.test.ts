import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';

const root = new URL('../../../', import.meta.url).pathname;

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

function waitForLine(child: ChildProcess, pattern: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const onData = (d: Buffer) => {
      seen += d.toString();
      const line = seen.split('\n').find((l) => pattern.test(l));
      if (line) resolve(line);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (d: Buffer) => {
      seen += d.toString();
    });
    child.on('exit', (code) => reject(new Error(`exited with ${code} before ready:\n${seen}`)));
  });
}

describe('the real process (npm start path)', () => {
  const children: ChildProcess[] = [];
  afterAll(() => {
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  });

  it('starts, answers /api/health, and on SIGTERM exits 0 leaving an intact database', async () => {
    const built = join(root, 'apps/server/dist/cli.js');
    expect(existsSync(built), 'run `npm run build` first (npm install does it)').toBe(true);
    const dataDir = join(mkdtempSync(join(tmpdir(), 'svc-proc-')), 'data');
    const port = await freePort();
    const child = spawn(process.execPath, [built, 'serve'], {
      env: { PATH: process.env.PATH, SVC_PORT: String(port), SVC_HOST: '127.0.0.1', SVC_DATA_DIR: dataDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    await waitForLine(child, /svc is listening/);

    const res = await fetch(`http://127.0.0.1:${port}/api/health`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { status: string }).status).toBe('healthy');
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);

    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);

    const db = new BetterSqlite3(join(dataDir, 'svc.db'), { readonly: true });
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      const n = db.prepare('select count(*) as n from svc_migrations').get() as { n: number };
      expect(n.n).toBeGreaterThan(0);
    } finally {
      db.close();
    }
  });
});
