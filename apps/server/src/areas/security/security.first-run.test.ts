import { statSync } from 'node:fs';
import { join } from 'node:path';
import { createTestDatabase } from '@svc/platform/testing';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { ADMIN, bootstrapToken, login, relaxedLimits, setUpAdmin } from '../../testing/access.js';
import { createTestApp, type TestApp } from '../../testing/app.js';

describe('first run: bootstrap token -> validate -> quick-setup -> login -> CSRF-protected write', () => {
  let t: TestApp;
  afterAll(() => t.close());

  it('walks the whole path', async () => {
    t = await createTestApp({ env: relaxedLimits });
    const file = join(t.config.dataDir, '.bootstrap_token');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const token = bootstrapToken(t);
    expect(t.logLines().some((l) => l.includes(token) && l.includes('first-run setup'))).toBe(true);

    const status0 = (await t.app.inject({ method: 'GET', url: '/api/security/status' })).json();
    expect(status0).toMatchObject({ hasAuthentication: false, setupRequired: true, authenticated: false });

    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/security/validate-bootstrap-token',
      headers: { 'x-setup-token': 'nope' },
    });
    expect(bad.statusCode).toBe(401);
    const good = await t.app.inject({
      method: 'POST',
      url: '/api/security/validate-bootstrap-token',
      headers: { 'x-setup-token': token },
    });
    expect(good.statusCode).toBe(204);
    const byBody = await t.app.inject({
      method: 'POST',
      url: '/api/security/validate-bootstrap-token',
      payload: { token },
    });
    expect(byBody.statusCode).toBe(204);

    const noToken = await t.app.inject({ method: 'POST', url: '/api/security/quick-setup', payload: ADMIN });
    expect(noToken.statusCode).toBe(401);
    const shortPw = await t.app.inject({
      method: 'POST',
      url: '/api/security/quick-setup',
      headers: { 'x-setup-token': token },
      payload: { username: 'admin', password: 'short' },
    });
    expect(shortPw.statusCode).toBe(400);
    expect(shortPw.json().message).toContain('password');
    expect((await t.app.inject({ method: 'GET', url: '/api/security/status' })).json().hasAuthentication).toBe(false);

    const apiToken = 'svc_first_run_token_0123456789abcdef';
    const setup = await t.app.inject({
      method: 'POST',
      url: '/api/security/quick-setup',
      headers: { 'x-setup-token': token },
      payload: { ...ADMIN, apiToken, darkMode: true, enableNotifications: true },
    });
    expect(setup.statusCode).toBe(200);
    expect(setup.json()).toMatchObject({ success: true, skipped: false });
    expect(() => statSync(file)).toThrow();

    const again = await t.app.inject({
      method: 'POST',
      url: '/api/security/quick-setup',
      headers: { 'x-setup-token': token },
      payload: { ...ADMIN, username: 'mallory', force: true },
    });
    expect(again.statusCode).toBe(401);

    const viaSetupToken = await t.app.inject({
      method: 'GET',
      url: '/api/security/tokens',
      headers: { 'x-api-token': apiToken },
    });
    expect(viaSetupToken.statusCode).toBe(200);
    expect(viaSetupToken.json().tokens[0]).toMatchObject({ name: 'primary', scopes: ['*'] });

    const s = await login(t);
    const noCsrf = await t.app.inject({
      method: 'POST',
      url: '/api/security/tokens',
      headers: { cookie: s.cookie },
      payload: { name: 'ci', scopes: ['monitoring:read'] },
    });
    expect(noCsrf.statusCode).toBe(403);
    expect(noCsrf.json().error).toBe('csrf_invalid');
    const wrongCsrf = await t.app.inject({
      method: 'POST',
      url: '/api/security/tokens',
      headers: { cookie: s.cookie, 'x-csrf-token': 'forged' },
      payload: { name: 'ci', scopes: ['monitoring:read'] },
    });
    expect(wrongCsrf.statusCode).toBe(403);
    const withCsrf = await t.app.inject({
      method: 'POST',
      url: '/api/security/tokens',
      headers: s.write,
      payload: { name: 'ci', scopes: ['monitoring:read'] },
    });
    expect(withCsrf.statusCode).toBe(201);

    const status = (
      await t.app.inject({ method: 'GET', url: '/api/security/status', headers: { cookie: s.cookie } })
    ).json();
    expect(status).toMatchObject({
      hasAuthentication: true,
      setupRequired: false,
      authenticated: true,
      username: 'admin',
      authMethod: 'session',
      isAdmin: true,
    });

    const rerun = await t.app.inject({
      method: 'POST',
      url: '/api/security/quick-setup',
      headers: s.write,
      payload: ADMIN,
    });
    expect(rerun.json()).toMatchObject({ success: true, skipped: true });
  });

  it('login sets HttpOnly SameSite=Lax session and a JS-readable CSRF cookie; logout clears both', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/login', payload: { ...ADMIN, rememberMe: false } });
    const session = res.cookies.find((c) => c.name === 'svc_session')!;
    const csrf = res.cookies.find((c) => c.name === 'svc_csrf')!;
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/', maxAge: 86400 });
    expect(csrf.httpOnly).toBeFalsy();
    expect(session.secure).toBeFalsy();
    const cookie = `svc_session=${session.value}; svc_csrf=${csrf.value}`;
    const out = await t.app.inject({
      method: 'POST',
      url: '/api/logout',
      headers: { cookie, 'x-csrf-token': csrf.value },
    });
    expect(out.statusCode).toBe(204);
    const cleared = out.cookies.filter((c) => c.value === '');
    expect(cleared.map((c) => c.name).sort()).toEqual(['svc_csrf', 'svc_session']);
    const after = await t.app.inject({ method: 'GET', url: '/api/security/tokens', headers: { cookie } });
    expect(after.statusCode).toBe(401);
  });

  it('bad credentials: 401 without saying which part was wrong; bad input: 400 naming the field', async () => {
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { username: 'admin', password: 'wrong password!' },
    });
    expect(wrong.statusCode).toBe(401);
    const nobody = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { username: 'ghost', password: 'wrong password!' },
    });
    expect(nobody.json().message).toBe(wrong.json().message);
    const missing = await t.app.inject({ method: 'POST', url: '/api/login', payload: { username: 'admin' } });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toContain('password');
  });

  it('sessions last 24 h, slide with use, and 30 days with rememberMe', async () => {
    const s = await login(t);
    t.clock.advance(23 * 3_600_000);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/security/tokens', headers: { cookie: s.cookie } })).statusCode,
    ).toBe(200);
    t.clock.advance(23 * 3_600_000);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/security/tokens', headers: { cookie: s.cookie } })).statusCode,
    ).toBe(200);
    t.clock.advance(25 * 3_600_000);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/security/tokens', headers: { cookie: s.cookie } })).statusCode,
    ).toBe(401);
    const long = await t.app.inject({ method: 'POST', url: '/api/login', payload: { ...ADMIN, rememberMe: true } });
    expect(long.cookies.find((c) => c.name === 'svc_session')!.maxAge).toBe(30 * 86400);
  });

  it('change-password needs the current password, then only the new one works', async () => {
    const s = await login(t);
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/api/security/change-password',
      headers: s.write,
      payload: { currentPassword: 'not it at all', newPassword: 'a brand new passphrase' },
    });
    expect(wrong.statusCode).toBe(403);
    const short = await t.app.inject({
      method: 'POST',
      url: '/api/security/change-password',
      headers: s.write,
      payload: { currentPassword: ADMIN.password, newPassword: 'short' },
    });
    expect(short.statusCode).toBe(400);
    expect(short.json().message).toContain('newPassword');
    const ok = await t.app.inject({
      method: 'POST',
      url: '/api/security/change-password',
      headers: s.write,
      payload: { currentPassword: ADMIN.password, newPassword: 'a brand new passphrase' },
    });
    expect(ok.statusCode).toBe(200);
    expect((await t.app.inject({ method: 'POST', url: '/api/login', payload: ADMIN })).statusCode).toBe(401);
    await login(t, { username: 'admin', password: 'a brand new passphrase' });
  });
});

describe('sessions on PostgreSQL survive a restart', () => {
  it('a session from one app instance works on the next one', async () => {
    const pg = await createTestDatabase(inject('pgUrl'));
    const a = await createTestApp({ databaseUrl: pg.url, env: relaxedLimits });
    await setUpAdmin(a);
    const s = await login(a);
    await a.close();
    const b = await createTestApp({ databaseUrl: pg.url, env: relaxedLimits, dataDir: a.config.dataDir });
    const res = await b.app.inject({ method: 'GET', url: '/api/security/status', headers: { cookie: s.cookie } });
    expect(res.json()).toMatchObject({ authenticated: true, username: 'admin' });
    expect(b.logLines().some((l) => l.includes('first-run setup'))).toBe(false);
    await b.close();
    await pg.drop();
  });
});
