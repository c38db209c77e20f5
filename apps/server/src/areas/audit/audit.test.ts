import { createTestDatabase } from '@svc/platform/testing';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { createToken, login, relaxedLimits, setUpAdmin } from '../../testing/access.js';
import { createTestApp, type TestApp } from '../../testing/app.js';

describe.each(['sqlite', 'postgres'] as const)('audit log on %s', (dialect) => {
  let t: TestApp;
  let drop = async () => {};
  afterAll(async () => {
    await t.close();
    await drop();
  });

  it('records each security action with a verifiable signature; a tampered row verifies false', async () => {
    let databaseUrl: string | undefined;
    if (dialect === 'postgres') {
      const pg = await createTestDatabase(inject('pgUrl'));
      databaseUrl = pg.url;
      drop = pg.drop;
    }
    t = await createTestApp({ databaseUrl, env: relaxedLimits, overrides: { hasFeature: () => true } });
    await setUpAdmin(t);
    await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { username: 'admin', password: 'wrong wrong wrong' },
    });
    const s = await login(t);
    const raw = await createToken(t, s, ['settings:read']);
    const id = (await t.app.inject({ method: 'GET', url: '/api/security/tokens', headers: { cookie: s.cookie } }))
      .json()
      .tokens.at(-1).id;
    await t.app.inject({ method: 'DELETE', url: `/api/security/tokens/${id}`, headers: s.write });
    await t.app.inject({
      method: 'POST',
      url: '/api/security/reset-lockout',
      headers: s.write,
      payload: { identifier: 'admin' },
    });
    await t.app.inject({
      method: 'POST',
      url: '/api/security/oidc',
      headers: s.write,
      payload: { enabled: false, issuerUrl: '', clientId: '' },
    });
    await t.app.inject({ method: 'POST', url: '/api/logout', headers: s.write });
    const s2 = await login(t);

    const list = await t.app.inject({ method: 'GET', url: '/api/audit?limit=100', headers: { cookie: s2.cookie } });
    expect(list.statusCode).toBe(200);
    const body = list.json();
    expect(body.persistentLogging).toBe(true);
    const events = body.events.map((e: { event: string }) => e.event);
    for (const e of [
      'quick_setup',
      'login_failed',
      'login',
      'token_created',
      'token_revoked',
      'lockout_reset',
      'oidc_config_changed',
      'logout',
    ]) {
      expect(events).toContain(e);
    }
    expect(JSON.stringify(body)).not.toContain(raw);
    const failed = body.events.find((e: { event: string }) => e.event === 'login_failed');
    expect(failed).toMatchObject({ user: 'admin', ip: '127.0.0.1', path: '/api/login', success: false });
    expect(failed.signature).toMatch(/^v1:[0-9a-f]{64}$/);

    const onlyFailures = (
      await t.app.inject({ method: 'GET', url: '/api/audit?success=false', headers: { cookie: s2.cookie } })
    ).json();
    expect(onlyFailures.events.every((e: { success: boolean }) => !e.success)).toBe(true);
    const byEvent = (
      await t.app.inject({ method: 'GET', url: '/api/audit?event=login', headers: { cookie: s2.cookie } })
    ).json();
    expect(byEvent.total).toBe(2);
    const bad = await t.app.inject({
      method: 'GET',
      url: '/api/audit?startTime=yesterday',
      headers: { cookie: s2.cookie },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('startTime');

    const verify = (eid: string) =>
      t.app.inject({ method: 'GET', url: `/api/audit/${eid}/verify`, headers: { cookie: s2.cookie } });
    expect((await verify(failed.id)).json()).toMatchObject({ available: true, verified: true });
    await t.db.db.updateTable('audit_events').set({ success: 1 }).where('id', '=', failed.id).execute();
    expect((await verify(failed.id)).json()).toMatchObject({ available: true, verified: false });
    expect((await verify('00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
  });

  it('keeps 90 days by default', async () => {
    const s = await login(t);
    t.clock.advance(91 * 86_400_000);
    await login(t);
    const all = (
      await t.app.inject({ method: 'GET', url: '/api/audit?limit=1000', headers: { cookie: (await login(t)).cookie } })
    ).json();
    expect(
      all.events.every((e: { timestamp: string }) => Date.parse(e.timestamp) >= t.clock.now() - 90 * 86_400_000),
    ).toBe(true);
    expect(all.total).toBeGreaterThan(0);
    void s;
  });
});
