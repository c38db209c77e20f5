import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { login, relaxedLimits, type Session, setUpAdmin } from '../../testing/access.js';
import { createTestApp, type TestApp } from '../../testing/app.js';

const REDIRECT = 'http://127.0.0.1:7655/api/oidc/callback';
const groupsOf: Record<string, string[]> = { alice: ['ops', 'svc-admins'], bob: ['guests'] };

async function startProvider(): Promise<{ issuer: string; server: Server }> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: 'svc',
        client_secret: 'provider-secret-123',
        redirect_uris: [REDIRECT],
        response_types: ['code'],
        grant_types: ['authorization_code'],
      },
    ],
    claims: { openid: ['sub'], profile: ['preferred_username'], groups: ['groups'] },
    scopes: ['openid', 'profile', 'groups'],
    findAccount: async (_ctx: unknown, id: string) => ({
      accountId: id,
      claims: async () => ({ sub: id, preferred_username: id, groups: groupsOf[id] ?? [] }),
    }),
    cookies: { keys: ['test-cookie-key'] },
  });
  server.on('request', provider.callback());
  return { issuer, server };
}

/** Plays the browser at the provider: follows redirects, logs in as `user` and consents, until svc's callback. */
async function signInAtProvider(start: string, user: string): Promise<URL> {
  const jar = new Map<string, string>();
  const cookieHeader = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  let url = start;
  let body: string | undefined;
  for (let i = 0; i < 20; i++) {
    if (url.startsWith(REDIRECT)) return new URL(url);
    const res = await fetch(url, {
      method: body ? 'POST' : 'GET',
      redirect: 'manual',
      headers: { cookie: cookieHeader(), ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
      body,
    });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const [k, ...v] = pair!.split('=');
      jar.set(k!, v.join('='));
    }
    body = undefined;
    const location = res.headers.get('location');
    if (location) {
      url = new URL(location, url).href;
      continue;
    }
    const html = await res.text();
    const prompt = /name="prompt" value="(\w+)"/.exec(html)?.[1];
    if (!prompt) throw new Error(`unexpected provider page ${res.status}: ${html.slice(0, 300)}`);
    body = prompt === 'login' ? `prompt=login&login=${user}&password=x` : `prompt=${prompt}`;
  }
  throw new Error('too many redirects at the provider');
}

describe('OIDC single sign-on against oidc-provider on loopback', () => {
  let t: TestApp;
  let s: Session;
  let provider: { issuer: string; server: Server };
  beforeAll(async () => {
    provider = await startProvider();
    t = await createTestApp({ env: relaxedLimits });
    await setUpAdmin(t);
    s = await login(t);
  });
  afterAll(async () => {
    await t.close();
    provider.server.close();
  });

  it('stores settings with a write-only, encrypted client secret', async () => {
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/security/oidc',
      headers: s.write,
      payload: { enabled: true, issuerUrl: 'ftp://x', clientId: 'svc' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('issuerUrl');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/security/oidc',
      headers: s.write,
      payload: {
        enabled: true,
        issuerUrl: provider.issuer,
        clientId: 'svc',
        clientSecret: 'provider-secret-123',
        redirectUrl: REDIRECT,
        scopes: ['openid', 'profile', 'groups'],
        allowedGroups: ['ops'],
        adminGroups: ['svc-admins'],
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ enabled: true, clientSecretSet: true });
    expect(res.body).not.toContain('provider-secret-123');
    const rows = await t.db.db.selectFrom('settings').selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain('provider-secret-123');
  });

  it('a user in an allowed group gets a session (PKCE, state, nonce checked by openid-client)', async () => {
    const start = await t.app.inject({ method: 'GET', url: '/api/oidc/login?returnTo=/dashboard' });
    expect(start.statusCode).toBe(302);
    const auth = new URL(start.headers.location as string);
    expect(auth.searchParams.get('code_challenge_method')).toBe('S256');
    expect(auth.searchParams.get('state')).toBeTruthy();
    expect(auth.searchParams.get('nonce')).toBeTruthy();
    const flow = start.cookies.find((c) => c.name === 'svc_oidc')!;
    const back = await signInAtProvider(auth.href, 'alice');
    const cb = await t.app.inject({
      method: 'GET',
      url: `/api/oidc/callback${back.search}`,
      headers: { cookie: `svc_oidc=${flow.value}` },
    });
    expect(cb.statusCode).toBe(302);
    expect(cb.headers.location).toBe('/dashboard');
    const session = cb.cookies.find((c) => c.name === 'svc_session' && c.value !== '')!;
    expect(session.httpOnly).toBe(true);
    const status = await t.app.inject({
      method: 'GET',
      url: '/api/security/status',
      headers: { cookie: `svc_session=${session.value}` },
    });
    expect(status.json()).toMatchObject({
      authenticated: true,
      username: 'alice',
      authMethod: 'session',
      isAdmin: true,
    });
    const replay = await t.app.inject({ method: 'GET', url: `/api/oidc/callback${back.search}` });
    expect(replay.statusCode).toBe(400);
  });

  it('a user outside the allowed groups gets a clear refusal page and no session', async () => {
    const start = await t.app.inject({ method: 'GET', url: '/api/oidc/login' });
    const flow = start.cookies.find((c) => c.name === 'svc_oidc')!;
    const back = await signInAtProvider(start.headers.location as string, 'bob');
    const cb = await t.app.inject({
      method: 'GET',
      url: `/api/oidc/callback${back.search}`,
      headers: { cookie: `svc_oidc=${flow.value}` },
    });
    expect(cb.statusCode).toBe(403);
    expect(cb.headers['content-type']).toContain('text/html');
    expect(cb.body).toContain('You signed in as bob, but you are not a member of a group allowed to use svc');
    expect(cb.cookies.find((c) => c.name === 'svc_session' && c.value !== '')).toBeUndefined();
    const audit = await t.db.db
      .selectFrom('audit_events')
      .select(['event', 'username', 'success'])
      .where('event', '=', 'oidc_login')
      .execute();
    expect(audit).toEqual(
      expect.arrayContaining([
        { event: 'oidc_login', username: 'bob', success: 0 },
        { event: 'oidc_login', username: 'alice', success: 1 },
      ]),
    );
  });
});
