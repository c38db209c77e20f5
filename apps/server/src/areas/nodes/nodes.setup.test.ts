import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Simulator, startSimulator } from '@svc/hv-sim';
import { FakeClock } from '@svc/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectorFactories, PollManager } from '../../collectors/index.js';
import { FakeTimers } from '../../platform/jobs/index.js';
import { LiveState } from '../../state/index.js';
import { createToken, login, relaxedLimits, setUpAdmin } from '../../testing/access.js';
import { createTestApp, type TestApp } from '../../testing/app.js';
import { expandCidr } from './nodes.discover.js';

const SECRET = 'from-the-script-5b2e';

/** Stand-ins for the hv node's own commands, so the real script runs here end to end. */
function fakeNodeBin(): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-fake-hv-'));
  const put = (name: string, body: string) => {
    writeFileSync(join(dir, name), `#!/usr/bin/env bash\n${body}\n`);
    chmodSync(join(dir, name), 0o755);
  };
  put(
    'pveum',
    `case "$1 $2" in "user token") [ "$3" = add ] && echo '{"full-tokenid":"svc-monitor@pve!svc","value":"${SECRET}"}';; esac; exit 0`,
  );
  put('id', 'echo 0');
  put('hostname', 'echo lab-node');
  return dir;
}

describe('node setup script, auto-registration, export/import and discovery', () => {
  const clock = new FakeClock(Date.UTC(2026, 10, 22, 12));
  const timers = new FakeTimers(clock);
  const state = new LiveState({ clock });
  const polls = new PollManager({ clock, timers, factories: collectorFactories, sink: state, random: () => 0.5 });
  let t: TestApp;
  let hv: Simulator;
  let base: string;
  let auth: Record<string, string>;

  beforeAll(async () => {
    hv = await startSimulator({
      kind: 'hv',
      port: 0,
      nodes: 1,
      guestsPerNode: 2,
      tokens: [{ tokenId: 'svc-monitor@pve!svc', secret: SECRET }],
      clock: () => clock.now(),
    });
    t = await createTestApp({ clock, env: relaxedLimits, overrides: { state, polls } });
    await setUpAdmin(t);
    auth = { 'x-api-token': await createToken(t, await login(t), ['*']) };
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await t.close();
    await hv.close();
  });

  const setupUrl = async (host?: string) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/setup-script-url',
      headers: { ...auth, host: base.replace('http://', '') },
      payload: { type: 'hv', host },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { token: string; url: string; command: string; expires: string };
  };

  it('the setup script, run on a node, creates a token and registers the node; the token works once', async () => {
    const { url, token, expires } = await setupUrl(hv.url);
    expect(new Date(expires).getTime() - clock.now()).toBe(15 * 60_000);
    const script = await fetch(url.replace(/^http:\/\/[^/]+/, base));
    expect(script.status).toBe(200);
    const text = await script.text();
    expect(text).toContain('pveum user token add');
    // Asynchronous: the server answering the script's curl runs in this very process.
    const run = await new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn('bash', ['--norc', '--noprofile', '-c', text], {
        env: { PATH: `${fakeNodeBin()}:${process.env.PATH}` },
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d) => {
        stdout += d;
      });
      child.stderr.on('data', (d) => {
        stderr += d;
      });
      child.on('close', (status) => resolve({ status, stdout, stderr }));
    });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('registered with svc');
    expect(run.stdout + run.stderr).not.toContain(SECRET);
    const nodes = (await t.app.inject({ method: 'GET', url: '/api/config/nodes', headers: auth })).json();
    expect(nodes).toHaveLength(1);
    expect(nodes[0]).toMatchObject({
      name: 'lab-node',
      source: 'script',
      hasToken: true,
      tokenName: 'svc-monitor@pve!svc',
    });
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/auto-register',
      headers: { 'x-setup-token': token },
      payload: { type: 'hv', host: hv.url, tokenName: 'a@pve!b', tokenValue: 'x' },
    });
    expect(again.statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: `/api/setup-script?auth_token=${token}` })).statusCode).toBe(401);
  });

  it('an expired setup token is refused', async () => {
    const { token } = await setupUrl();
    clock.advance(15 * 60_000 + 1);
    const res = await t.app.inject({ method: 'GET', url: `/api/setup-script?auth_token=${token}` });
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toMatch(/expired/);
  });

  it('export then import on a fresh instance round-trips nodes with their secrets', async () => {
    const short = await t.app.inject({
      method: 'POST',
      url: '/api/config/export',
      headers: auth,
      payload: { passphrase: 'too short' },
    });
    expect(short.statusCode).toBe(400);
    expect(short.json().details.issues[0].field).toBe('passphrase');
    const exp = await t.app.inject({
      method: 'POST',
      url: '/api/config/export',
      headers: auth,
      payload: { passphrase: 'correct horse battery staple' },
    });
    expect(exp.statusCode, exp.body).toBe(200);
    const data = exp.json().data as string;
    expect(Buffer.from(data, 'base64').toString('latin1')).not.toContain(SECRET);

    const fresh = await createTestApp({
      clock,
      env: relaxedLimits,
      overrides: {
        state: new LiveState({ clock }),
        polls: new PollManager({ clock, timers, factories: collectorFactories, sink: new LiveState({ clock }) }),
      },
    });
    try {
      await setUpAdmin(fresh);
      const h = { 'x-api-token': await createToken(fresh, await login(fresh), ['*']) };
      const wrong = await fresh.app.inject({
        method: 'POST',
        url: '/api/config/import',
        headers: h,
        payload: { data, passphrase: 'not the passphrase' },
      });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json().message).toMatch(/passphrase is wrong/);
      const damaged = await fresh.app.inject({
        method: 'POST',
        url: '/api/config/import',
        headers: h,
        payload: { data: `${data.slice(0, -8)}AAAAAAA=`, passphrase: 'correct horse battery staple' },
      });
      expect(damaged.statusCode).toBe(400);
      expect((await fresh.app.inject({ method: 'GET', url: '/api/config/nodes', headers: h })).json()).toHaveLength(0);
      const ok = await fresh.app.inject({
        method: 'POST',
        url: '/api/config/import',
        headers: h,
        payload: { data, passphrase: 'correct horse battery staple' },
      });
      expect(ok.statusCode, ok.body).toBe(200);
      expect(ok.json().nodes).toBe(1);
      const imported = (await fresh.app.inject({ method: 'GET', url: '/api/config/nodes', headers: h })).json();
      expect(imported[0]).toMatchObject({ name: 'lab-node', hasToken: true });
      const test = await fresh.app.inject({
        method: 'POST',
        url: `/api/config/nodes/${imported[0].id}/test`,
        headers: h,
      });
      expect(test.json().success).toBe(true);
    } finally {
      await fresh.close();
    }
  });

  it('discovery finds the simulated APIs on loopback and tells hv, bak and mail apart', async () => {
    const users = [{ username: 'x@pbs', password: 'y' }];
    const bak = await startSimulator({ kind: 'bak', port: 0, users });
    const mail = await startSimulator({ kind: 'mail', port: 0, users });
    try {
      const ports = [hv, bak, mail].map((s) => Number(new URL(s.url).port));
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/discover?subnet=127.0.0.1/32&ports=${ports.join(',')},1`,
        headers: auth,
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().scanned).toBe(4);
      const found = res.json().found as { port: number; type: string; version: string | null; url: string }[];
      expect(Object.fromEntries(found.map((f) => [f.port, f.type]))).toEqual({
        [ports[0]!]: 'hv',
        [ports[1]!]: 'bak',
        [ports[2]!]: 'mail',
      });
      expect(found.every((f) => f.version === null && f.url.startsWith('http://127.0.0.1:'))).toBe(true);
    } finally {
      await bak.close();
      await mail.close();
    }
    const tooBig = await t.app.inject({ method: 'GET', url: '/api/discover?subnet=10.0.0.0/8', headers: auth });
    expect(tooBig.statusCode).toBe(400);
    expect(tooBig.json().details.issues[0].field).toBe('subnet');
  });

  it('expandCidr leaves out network and broadcast addresses', () => {
    expect(expandCidr('192.168.1.0/30')).toEqual(['192.168.1.1', '192.168.1.2']);
    expect(expandCidr('127.0.0.1/32')).toEqual(['127.0.0.1']);
    expect(expandCidr('10.0.0.0/22')).toHaveLength(1022);
  });
});
