import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config/index.js';
import { relaxedLimits, setUpAdmin } from '../../testing/access.js';
import { createTestApp, type TestApp } from '../../testing/app.js';

describe('recovery', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: relaxedLimits });
    await setUpAdmin(t);
  });
  afterAll(() => t.close());

  const post = (action: string, extra: Record<string, unknown> = {}) =>
    t.app.inject({ method: 'POST', url: '/api/security/recovery', payload: { action }, ...extra });

  it('generate_token works only from loopback without proxy headers', async () => {
    expect((await post('generate_token', { remoteAddress: '192.0.2.10' })).statusCode).toBe(403);
    expect((await post('generate_token', { headers: { 'x-forwarded-for': '192.0.2.10' } })).statusCode).toBe(403);
    expect((await post('generate_token', { headers: { origin: 'https://evil.example' } })).statusCode).toBe(403);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/security/recovery', remoteAddress: '192.0.2.10' })).statusCode,
    ).toBe(403);
  });

  it('a recovery token disables auth remotely; every response then says so, until enable_auth', async () => {
    const gen = await post('generate_token');
    expect(gen.statusCode).toBe(200);
    const { token, expires_in_minutes } = gen.json();
    expect(expires_in_minutes).toBe(15);
    const remote = { remoteAddress: '192.0.2.10', headers: { 'x-recovery-token': token } };
    const off = await post('disable_auth', remote);
    expect(off.statusCode).toBe(200);
    expect(off.json().recovery_mode).toBe(true);
    expect(off.headers['x-svc-auth-disabled']).toBe('true');

    const missing = await t.app.inject({ method: 'GET', url: '/api/nothing-here' });
    expect(missing.headers['x-svc-auth-disabled']).toBe('true');
    const status = (
      await t.app.inject({ method: 'GET', url: '/api/security/status', remoteAddress: '192.0.2.11' })
    ).json();
    expect(status).toMatchObject({ authDisabled: true, recoveryMode: true, authenticated: false });
    const local = await t.app.inject({ method: 'GET', url: '/api/security/tokens' });
    expect(local.statusCode).toBe(200);
    const stranger = await t.app.inject({ method: 'GET', url: '/api/security/tokens', remoteAddress: '192.0.2.11' });
    expect(stranger.statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/api/security/recovery', ...remote })).json().recovery_mode).toBe(
      true,
    );

    const on = await post('enable_auth', remote);
    expect(on.json().recovery_mode).toBe(false);
    expect(on.headers['x-svc-auth-disabled']).toBeUndefined();
    expect((await t.app.inject({ method: 'GET', url: '/api/security/tokens' })).statusCode).toBe(401);
    expect((await post('disable_auth', remote)).statusCode).toBe(403);
  });

  it('a recovery token expires after 15 minutes', async () => {
    const { token } = (await post('generate_token')).json();
    t.clock.advance(15 * 60_000 + 1);
    const res = await post('disable_auth', { remoteAddress: '192.0.2.10', headers: { 'x-recovery-token': token } });
    expect(res.statusCode).toBe(403);
  });

  it('apply-restart answers 409 outside a service manager', async () => {
    await post('disable_auth');
    const res = await t.app.inject({ method: 'POST', url: '/api/security/apply-restart' });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toContain('restart it by hand');
    await post('enable_auth');
  });
});

describe('apply-restart under systemd', () => {
  it('asks the service manager to restart', async () => {
    let restarted = 0;
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-test-'));
    const probe = { cwd: '/', exists: () => false, read: () => undefined };
    const config = loadConfig({ SVC_DATA_DIR: dataDir, INVOCATION_ID: 'abc', ...relaxedLimits }, probe);
    expect(config.deploymentType).toBe('systemd');
    const t = await createTestApp({ dataDir, overrides: { config, restart: () => void restarted++ } });
    await setUpAdmin(t);
    const tok = (await t.app.inject({ method: 'GET', url: '/api/security/tokens' })).statusCode;
    expect(tok).toBe(401);
    const { token } = (
      await t.app.inject({ method: 'POST', url: '/api/security/recovery', payload: { action: 'generate_token' } })
    ).json();
    await t.app.inject({
      method: 'POST',
      url: '/api/security/recovery',
      payload: { action: 'disable_auth' },
      headers: { 'x-recovery-token': token },
    });
    const res = await t.app.inject({ method: 'POST', url: '/api/security/apply-restart' });
    expect(res.statusCode).toBe(202);
    await new Promise((r) => setImmediate(r));
    expect(restarted).toBe(1);
    await t.close();
  });
});
