import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToken, login, relaxedLimits, type Session, setUpAdmin } from '../../testing/access.js';
import { createTestApp, type TestApp } from '../../testing/app.js';
import { testLicenseIssuer } from '../../testing/license.js';

const DAY = 86_400_000;

describe('licence', () => {
  const issuer = testLicenseIssuer();
  let t: TestApp;
  let s: Session;
  const nowSec = () => Math.floor(t.clock.now() / 1000);
  const activate = (license_key: string) =>
    t.app.inject({ method: 'POST', url: '/api/license/activate', headers: s.write, payload: { license_key } });

  beforeAll(async () => {
    t = await createTestApp({ env: relaxedLimits, overrides: { licensePublicKey: issuer.publicKeyPem } });
    await setUpAdmin(t);
    s = await login(t);
  });
  afterAll(() => t.close());

  it('without a licence: Community status, and feature-gated routes answer 402 naming the feature', async () => {
    const st = (
      await t.app.inject({ method: 'GET', url: '/api/license/status', headers: { cookie: s.cookie } })
    ).json();
    expect(st).toMatchObject({ valid: false, state: 'none', tier: 'community' });
    const audit = await t.app.inject({ method: 'GET', url: '/api/audit', headers: { cookie: s.cookie } });
    expect(audit.statusCode).toBe(402);
    expect(audit.json()).toMatchObject({ error: 'license_required', details: { feature: 'audit_logging' } });
  });

  it('refuses malformed, wrongly signed and expired keys with 400 and the reason, changing nothing', async () => {
    const malformed = await activate('not-a-licence');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().message).toContain('malformed');
    const other = generateKeyPairSync('ed25519').privateKey;
    const forged = await activate(issuer.issue({ lid: 'L1', email: 'a@example.org', tier: 'enterprise' }, other));
    expect(forged.statusCode).toBe(400);
    expect(forged.json().message).toContain('signature');
    const expired = await activate(
      issuer.issue({ lid: 'L2', email: 'a@example.org', tier: 'pro', exp: nowSec() - 60 }),
    );
    expect(expired.statusCode).toBe(400);
    expect(expired.json().message).toContain('expired');
    const badTier = await activate(issuer.issue({ lid: 'L3', email: 'a@example.org', tier: 'gold' }));
    expect(badTier.json().message).toContain('tier');
    const missing = await t.app.inject({ method: 'POST', url: '/api/license/activate', headers: s.write, payload: {} });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toContain('license_key');
    const st = (
      await t.app.inject({ method: 'GET', url: '/api/license/status', headers: { cookie: s.cookie } })
    ).json();
    expect(st.state).toBe('none');
  });

  it('a valid key unlocks its features; after expiry a 7-day grace period, then Community again', async () => {
    const key = issuer.issue({
      lid: 'LIC-42',
      email: 'ops@example.org',
      tier: 'pro',
      exp: nowSec() + 3 * 86400,
      max_nodes: 50,
    });
    const res = await activate(key);
    expect(res.statusCode).toBe(200);
    expect(res.json().status).toMatchObject({
      valid: true,
      state: 'active',
      tier: 'pro',
      licenseId: 'LIC-42',
      days_remaining: 3,
      max_nodes: 50,
    });
    expect((await t.app.inject({ method: 'GET', url: '/api/audit', headers: { cookie: s.cookie } })).statusCode).toBe(
      200,
    );
    const reader = await createToken(t, s, ['monitoring:read']);
    const features = (
      await t.app.inject({ method: 'GET', url: '/api/license/features', headers: { 'x-api-token': reader } })
    ).json();
    expect(features.features.audit_logging).toBe(true);
    expect(features.features.multi_tenant).toBe(false);

    t.clock.advance(4 * DAY);
    s = await login(t);
    const grace = (
      await t.app.inject({ method: 'GET', url: '/api/license/status', headers: { cookie: s.cookie } })
    ).json();
    expect(grace).toMatchObject({ valid: true, state: 'grace', in_grace_period: true });
    expect(grace.grace_period_end).toBe(new Date((nowSec() - 86400 + 7 * 86400) * 1000).toISOString());
    expect((await t.app.inject({ method: 'GET', url: '/api/audit', headers: { cookie: s.cookie } })).statusCode).toBe(
      200,
    );

    t.clock.advance(7 * DAY);
    s = await login(t);
    const over = (
      await t.app.inject({ method: 'GET', url: '/api/license/status', headers: { cookie: s.cookie } })
    ).json();
    expect(over).toMatchObject({ valid: false, state: 'expired', tier: 'community', in_grace_period: false });
    expect((await t.app.inject({ method: 'GET', url: '/api/audit', headers: { cookie: s.cookie } })).statusCode).toBe(
      402,
    );
  });

  it('the key is stored sealed (not readable in the database), and clear removes it', async () => {
    const key = issuer.issue({ lid: 'LIFE', email: 'ops@example.org', tier: 'enterprise', features: ['relay'] });
    expect((await activate(key)).json().status).toMatchObject({ is_lifetime: true, tier: 'enterprise' });
    const stored = await t.db.db.selectFrom('license_keys').selectAll().execute();
    expect(JSON.stringify(stored)).not.toContain(key.split('.')[1]);
    const cleared = await t.app.inject({ method: 'POST', url: '/api/license/clear', headers: s.write });
    expect(cleared.json().status.state).toBe('none');
    const reader = await createToken(t, s, ['monitoring:read']);
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/license/clear', headers: { 'x-api-token': reader } }))
        .statusCode,
    ).toBe(403);
  });
});
