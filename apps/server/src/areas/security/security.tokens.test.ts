import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTestDatabase } from '@svc/platform/testing';
import { sql } from 'kysely';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { ADMIN, createToken, login, relaxedLimits, type Session, setUpAdmin } from '../../testing/access.js';
import { createTestApp, type TestApp } from '../../testing/app.js';

async function dumpDatabase(t: TestApp): Promise<string> {
  const tables = ['users', 'sessions', 'api_tokens', 'settings', 'audit_events', 'recovery_tokens', 'login_failures'];
  const out: unknown[] = [];
  for (const name of tables) out.push((await sql`select * from ${sql.table(name)}`.execute(t.db.db)).rows);
  return JSON.stringify(out);
}

function dataDirText(t: TestApp): string {
  return readdirSync(t.config.dataDir)
    .map((f) => readFileSync(join(t.config.dataDir, f)).toString('latin1'))
    .join('\n');
}

describe.each(['sqlite', 'postgres'] as const)('API tokens on %s', (dialect) => {
  let t: TestApp;
  let s: Session;
  let drop = async () => {};
  afterAll(async () => {
    await t.close();
    await drop();
  });

  it('creates a token shown once, lists it without the raw value, and revokes it', async () => {
    let databaseUrl: string | undefined;
    if (dialect === 'postgres') {
      const pg = await createTestDatabase(inject('pgUrl'));
      databaseUrl = pg.url;
      drop = pg.drop;
    }
    t = await createTestApp({ databaseUrl, env: relaxedLimits });
    await setUpAdmin(t);
    s = await login(t);
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/security/tokens',
      headers: s.write,
      payload: { name: 'reader', scopes: ['monitoring:read', 'settings:read'] },
    });
    expect(created.statusCode).toBe(201);
    const { token, record } = created.json();
    expect(token).toMatch(/^svc_[0-9a-f]{64}$/);
    expect(record).toMatchObject({
      name: 'reader',
      scopes: ['monitoring:read', 'settings:read'],
      prefix: token.slice(0, 8),
      suffix: token.slice(-4),
      lastUsedAt: null,
    });

    const bearer = await t.app.inject({
      method: 'GET',
      url: '/api/security/tokens',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(bearer.statusCode).toBe(200);
    expect(bearer.body).not.toContain(token);
    const listed = bearer.json().tokens.find((x: { id: string }) => x.id === record.id);
    expect(listed.lastUsedAt).not.toBeNull();

    const forbidden = await t.app.inject({
      method: 'POST',
      url: '/api/security/tokens',
      headers: { 'x-api-token': token },
      payload: { name: 'x', scopes: ['monitoring:read'] },
    });
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json().details.requiredScopes).toEqual(['settings:write']);

    const revoke = await t.app.inject({ method: 'DELETE', url: `/api/security/tokens/${record.id}`, headers: s.write });
    expect(revoke.statusCode).toBe(204);
    const after = await t.app.inject({ method: 'GET', url: '/api/security/tokens', headers: { 'x-api-token': token } });
    expect(after.statusCode).toBe(401);
    const again = await t.app.inject({ method: 'DELETE', url: `/api/security/tokens/${record.id}`, headers: s.write });
    expect(again.statusCode).toBe(404);
  });

  it('refuses an unknown scope with 400 naming it, and creates nothing', async () => {
    const before = (
      await t.app.inject({ method: 'GET', url: '/api/security/tokens', headers: { cookie: s.cookie } })
    ).json().tokens.length;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/security/tokens',
      headers: s.write,
      payload: { name: 'bad', scopes: ['monitoring:read', 'root:everything'] },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain('root:everything');
    const after = (
      await t.app.inject({ method: 'GET', url: '/api/security/tokens', headers: { cookie: s.cookie } })
    ).json().tokens.length;
    expect(after).toBe(before);
  });

  it('a narrow token cannot mint a wider one', async () => {
    const writer = await createToken(t, s, ['settings:write', 'settings:read']);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/security/tokens',
      headers: { 'x-api-token': writer },
      payload: { name: 'escalate', scopes: ['*'] },
    });
    expect(res.statusCode).toBe(403);
    const ok = await t.app.inject({
      method: 'POST',
      url: '/api/security/tokens',
      headers: { 'x-api-token': writer },
      payload: { name: 'same', scopes: ['settings:read'] },
    });
    expect(ok.statusCode).toBe(201);
  });

  it('regenerate-token answers the spec fields and replaces the primary token; validate-token checks one', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/security/regenerate-token', headers: s.write });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['deploymentType', 'message', 'requiresRestart', 'success', 'token']);
    const valid = await t.app.inject({
      method: 'POST',
      url: '/api/security/validate-token',
      headers: s.write,
      payload: { token: body.token },
    });
    expect(valid.json()).toMatchObject({ valid: true });
    const invalid = await t.app.inject({
      method: 'POST',
      url: '/api/security/validate-token',
      headers: s.write,
      payload: { token: 'svc_nope' },
    });
    expect(invalid.json()).toMatchObject({ valid: false });
  });

  it('raw tokens and passwords appear nowhere: not in the database, the data dir, or the logs', async () => {
    const raw = await createToken(t, s, ['monitoring:read'], 'grep-me');
    await t.app.inject({ method: 'GET', url: '/api/security/status', headers: { 'x-api-token': raw } });
    await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { username: 'admin', password: 'a wrong password here' },
    });
    const fresh = await login(t);
    const secrets = [
      raw,
      ADMIN.password,
      'a wrong password here',
      fresh.csrf,
      fresh.cookie.split(';')[0]!.split('=')[1]!,
    ];
    const haystacks = { database: await dumpDatabase(t), dataDir: dataDirText(t), logs: t.logLines().join('\n') };
    for (const [where, text] of Object.entries(haystacks)) {
      for (const secret of secrets) expect(text.includes(secret), `${where} contains a secret`).toBe(false);
    }
  });
});
