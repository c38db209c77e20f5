import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { report } from '../src/testing/dialects.js';

const built = new URL('../dist/cli.js', import.meta.url).pathname;

/** Starts the built svc-telemetry on `dataDir`; resolves with its URL and everything it logged so far. */
function start(dataDir: string): Promise<{ child: ChildProcess; url: string; log: () => string }> {
  const child = spawn(process.execPath, [built], {
    env: {
      PATH: process.env.PATH,
      SVC_TELEMETRY_DATA_DIR: dataDir,
      SVC_TELEMETRY_PORT: '0',
      SVC_TELEMETRY_HOST: '127.0.0.1',
      SVC_TELEMETRY_RATE_LIMIT: '0',
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  return new Promise((resolve, reject) => {
    const seen = (d: Buffer) => {
      out += d.toString();
      const m = /"url":"(http:[^"]+)"/.exec(out);
      if (m) resolve({ child, url: m[1]!, log: () => out });
    };
    child.stdout!.on('data', seen);
    child.stderr!.on('data', seen);
    child.on('exit', (code) => reject(new Error(`svc-telemetry exited with ${code} before listening:\n${out}`)));
  });
}

const reportOf = (n: number) => report(n, { nsapp: `app-${n % 7}` });

describe('svc-telemetry killed with SIGKILL under load', () => {
  const dir = mkdtempSync(join(tmpdir(), 'telemetry-crash-'));
  const children: ChildProcess[] = [];
  afterAll(() => {
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps every answered report, with running totals that match the records', async () => {
    expect(existsSync(built), 'run `npm run build` first (npm install does it)').toBe(true);
    const first = await start(dir);
    children.push(first.child);
    const answered = new Set<number>();
    let next = 0;
    let killed = false;
    // 16 clients post new reports back to back; the process is killed while their requests are in flight.
    const client = async () => {
      while (!killed) {
        const n = next++;
        try {
          const res = await fetch(`${first.url}/upload`, { method: 'POST', body: JSON.stringify(reportOf(n)) });
          if (res.status === 201) answered.add(n);
        } catch {
          return; // the connection died with the process: this report was never answered
        }
        if (answered.size >= 600 && !killed) {
          killed = true;
          first.child.kill('SIGKILL');
        }
      }
    };
    await Promise.all(Array.from({ length: 16 }, client));
    const exited = first.child.exitCode !== null || first.child.signalCode !== null;
    if (!exited) await new Promise((done) => first.child.once('exit', done));

    const second = await start(dir);
    children.push(second.child);
    // Every answered report is stored: sending it again finds it.
    for (const n of answered) {
      const res = await fetch(`${second.url}/upload`, { method: 'POST', body: JSON.stringify(reportOf(n)) });
      expect(res.status, `report ${n} was answered 201 before the kill`).toBe(200);
    }
    const summary = (await (await fetch(`${second.url}/api/stats/summary`)).json()) as { total: number };
    const records = (await (await fetch(`${second.url}/api/records?limit=1`)).json()) as { total: number };
    // Reports sent but not answered before the kill may or may not be stored; the totals agree either way.
    expect(summary.total).toBeGreaterThanOrEqual(answered.size);
    expect(summary.total).toBeLessThanOrEqual(next);
    expect(records.total).toBe(summary.total);

    // A second process on the same data directory would overwrite the journal: it refuses to start.
    const third = spawn(process.execPath, [built], {
      env: { PATH: process.env.PATH, SVC_TELEMETRY_DATA_DIR: dir, SVC_TELEMETRY_PORT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(third);
    let err = '';
    third.stderr!.on('data', (d: Buffer) => {
      err += d.toString();
    });
    const code = await new Promise((done) => third.once('exit', done));
    expect(code).toBe(1);
    expect(err).toContain(`Another svc-telemetry (pid ${second.child.pid}) is using this data directory`);

    second.child.kill('SIGTERM');
    await new Promise((done) => second.child.once('exit', done));
  });
});
