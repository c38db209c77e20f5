import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { webhookInput } from '@svc/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { loadOrCreateKeyFile } from '../../platform/crypto/index.js';
import { migrateServerDatabase, openServerDatabase } from '../../platform/db/index.js';
import { createNotificationsHarness, startReceiver, until } from '../../testing/notifications.js';
import type { Notice } from './notifications.model.js';

const root = new URL('../../../../../', import.meta.url).pathname;
const cli = join(root, 'apps/server/dist/cli.js');
const built = existsSync(cli);

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
});

describe.skipIf(!built)('svc template render (built CLI)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-tmpl-'));
  writeFileSync(
    join(dir, 'data.json'),
    JSON.stringify({ Level: 'critical', ResourceName: 'db "1"', Value: 1000000, Threshold: 90 }),
  );
  const run = (args: string[], input?: string) =>
    spawnSync(process.execPath, [cli, 'template', 'render', ...args], { input, encoding: 'utf8' });

  it('prints only the rendered output, with the webhook functions and Go number formatting', () => {
    writeFileSync(
      join(dir, 't.tmpl'),
      '{"t":"{{.Level | title}}: {{.ResourceName | jsonString}}","v":{{.Value}},"p":"{{printf "%.1f" .Threshold}}"}',
    );
    const r = run(['--template', join(dir, 't.tmpl'), '--data', join(dir, 'data.json')]);
    expect(r.status).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('{"t":"Critical: db \\"1\\"","v":1e+06,"p":"90.0"}');
  });

  it('reads the template from stdin; errors exit 1 with the Go message on stderr', () => {
    const ok = run(['--template', '-', '--data', join(dir, 'data.json')], '{{.Missing}}|{{.Level | upper}}');
    expect(ok.stdout).toBe('<no value>|CRITICAL');
    const parse = run(['--template', '-', '--data', join(dir, 'data.json')], 'a\n{{if .Level}}');
    expect(parse.status).toBe(1);
    expect(parse.stdout).toBe('');
    expect(parse.stderr).toBe('template: payload:2: unexpected EOF\n');
    const exec = run(['--template', '-', '--data', join(dir, 'data.json')], '{{.Value | upper}}');
    expect(exec.status).toBe(1);
    expect(exec.stderr).toBe(
      'template: payload:1:11: executing "payload" at <upper>: wrong type for value; expected string; got float64\n',
    );
  });
});

describe.skipIf(!built)('crash safety (real server process, SIGKILL mid-burst)', () => {
  it('delivers every one of 1,000 notices after a kill and restart; duplicates only with the same event id', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-crash-'));
    const rx = await startReceiver(() => ({ status: 204 }), { delayMs: 15 });
    // Queue the burst with the same store on the same SQLite file the server will open.
    const config = { dataDir, databaseUrl: undefined };
    const db = openServerDatabase(config);
    await migrateServerDatabase(db);
    const h = await createNotificationsHarness({
      db,
      secretKey: loadOrCreateKeyFile(join(dataDir, '.encryption.key')),
    });
    h.clock.set(Date.now());
    await h.area.worker.stop();
    await h.area.webhooks.create(
      h.actor,
      webhookInput.parse({ name: 'rx', url: `${rx.url}/hook`, template: '{"event":"{{.EventID}}","id":"{{.ID}}"}' }),
    );
    const notices: Notice[] = Array.from({ length: 1000 }, (_, i) => ({
      eventId: `alert-${i}:firing`,
      event: 'firing',
      at: Date.now(),
      alert: {
        id: `alert-${i}`,
        type: 'cpu',
        level: 'warning',
        resourceId: `r${i}`,
        resourceName: `vm${i}`,
        node: 'n1',
        instance: 'hv1',
        message: 'm',
        value: 91,
        threshold: 90,
        startTime: Date.now(),
        lastSeen: Date.now(),
        acknowledged: false,
      },
    }));
    await h.area.sink.deliver(notices);
    await h.close();
    await db.close();

    const env = {
      ...process.env,
      SVC_DATA_DIR: dataDir,
      SVC_HOST: '127.0.0.1',
      SVC_WEBHOOK_ALLOW_CIDRS: '127.0.0.1/32',
      LOG_LEVEL: 'warn',
    };
    const start = async () => {
      const child = spawn(process.execPath, [cli, 'serve'], {
        env: { ...env, SVC_PORT: String(await freePort()) },
        stdio: 'ignore',
      });
      children.push(child);
      return child;
    };
    const first = await start();
    await until(() => rx.received.length >= 100, 'first deliveries', 4000);
    first.kill('SIGKILL');
    await new Promise((r) => first.once('exit', r));
    const atKill = rx.received.length;
    expect(atKill).toBeLessThan(1000);
    const second = await start();
    const unique = () => new Set(rx.received.map((r) => r.headers['x-svc-event-id'])).size;
    await until(() => unique() === 1000, 'all 1,000 notices', 6000);
    second.kill('SIGTERM');
    await new Promise((r) => second.once('exit', r));
    for (const r of rx.received) expect(JSON.parse(r.body).event).toBe(r.headers['x-svc-event-id']);
    const dupes = rx.received.length - unique();
    console.log(
      `crash test: ${atKill} delivered before SIGKILL, ${rx.received.length} requests in all, ${dupes} duplicates (same event id)`,
    );
    await rx.close();
  }, 90_000);
});
