import { afterEach, describe, expect, it } from 'vitest';
import type { Simulator } from './index.js';
import { parseTokenSpec } from './sim.auth.js';
import { fakeClock, getJson, sim, TOKENS, ticketHeaders, tokenHeader, USERS } from './test-support.js';

let s: Simulator | undefined;
afterEach(async () => {
  await s?.close();
  s = undefined;
});

const api = (path: string) => `${s!.url}/api2/json${path}`;

describe('hv auth', () => {
  it('accepts PVEAPIToken with "=" before the secret (and a space after the scheme)', async () => {
    s = await sim('hv');
    const t = TOKENS.hv;
    expect((await getJson(api('/version'), tokenHeader('hv'))).status).toBe(200);
    expect((await getJson(api('/version'), { Authorization: `PVEAPIToken ${t.tokenId}=${t.secret}` })).status).toBe(
      200,
    );
  });

  it('refuses a wrong secret, the bak ":" form, and no credentials with 401', async () => {
    s = await sim('hv');
    const t = TOKENS.hv;
    const wrong = await getJson(api('/version'), { Authorization: `PVEAPIToken=${t.tokenId}=nope` });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ data: null, message: 'invalid token value!\n' });
    expect((await getJson(api('/version'), { Authorization: `PVEAPIToken=${t.tokenId}:${t.secret}` })).status).toBe(
      401,
    );
    const none = await getJson(api('/nodes'), {});
    expect(none.status).toBe(401);
    expect(none.statusText).toBe('No ticket');
  });

  it('logs in with a password, uses the PVEAuthCookie, and refuses a wrong password', async () => {
    s = await sim('hv', { cluster: 'demo' });
    const login = await fetch(api('/access/ticket'), {
      method: 'POST',
      body: new URLSearchParams({ username: 'svc', realm: 'pve', password: USERS.hv.password }),
    });
    const { data } = (await login.json()) as { data: Record<string, string> };
    expect(data.username).toBe('svc@pve');
    expect(data.ticket).toMatch(/^PVE:svc@pve:[0-9A-F]{8}::/);
    expect(data.clustername).toBe('demo');
    const cookie = { Cookie: `PVEAuthCookie=${encodeURIComponent(data.ticket!)}` };
    expect((await getJson(api('/nodes'), cookie)).status).toBe(200);
    const bad = await fetch(api('/access/ticket'), {
      method: 'POST',
      body: new URLSearchParams({ username: 'svc@pve', password: 'x' }),
    });
    expect(bad.status).toBe(401);
  });

  it('needs the CSRFPreventionToken on writes with a ticket, not with a token', async () => {
    s = await sim('hv');
    const h = await ticketHeaders(s, 'hv');
    const body = new URLSearchParams({ path: '/', roles: 'PVEAuditor', tokens: 'svc@pve!mon' });
    const noCsrf = await fetch(api('/access/acl'), { method: 'PUT', headers: { Cookie: h.Cookie! }, body });
    expect(noCsrf.status).toBe(401);
    expect(noCsrf.statusText).toBe('Permission denied - invalid csrf token');
    expect((await fetch(api('/access/acl'), { method: 'PUT', headers: h, body })).status).toBe(200);
    expect((await fetch(api('/access/acl'), { method: 'PUT', headers: tokenHeader('hv'), body })).status).toBe(200);
  });

  it('expires tickets after 2 hours, and renews them with the old ticket as password', async () => {
    const clock = fakeClock();
    s = await sim('hv', { clock: clock.now });
    const h = await ticketHeaders(s, 'hv');
    const ticket = decodeURIComponent(h.Cookie!.split('=').slice(1).join('='));
    clock.advance(7199_000);
    const renew = await fetch(api('/access/ticket'), {
      method: 'POST',
      body: new URLSearchParams({ username: 'svc@pve', password: ticket }),
    });
    expect(renew.status).toBe(200);
    const fresh = ((await renew.json()) as { data: { ticket: string } }).data.ticket;
    clock.advance(1000);
    expect((await getJson(api('/nodes'), { Cookie: h.Cookie! })).status).toBe(401);
    expect((await getJson(api('/nodes'), { Cookie: `PVEAuthCookie=${encodeURIComponent(fresh)}` })).status).toBe(200);
  });
});

describe('bak auth', () => {
  it('accepts PBSAPIToken with ":" and refuses the hv "=" form', async () => {
    s = await sim('bak');
    const t = TOKENS.bak;
    expect((await getJson(api('/version'), tokenHeader('bak'))).status).toBe(200);
    const eq = await getJson(api('/version'), { Authorization: `PBSAPIToken=${t.tokenId}=${t.secret}` });
    expect(eq.status).toBe(401);
    // bak error bodies are plain text, not JSON.
    expect(eq.text).toMatch(/^authentication failed/);
  });

  it('logs in and uses the PBSAuthCookie; no credentials gives 401', async () => {
    s = await sim('bak');
    const h = await ticketHeaders(s, 'bak');
    expect(h.Cookie).toMatch(/^PBSAuthCookie=PBS%3Asvc%40pbs%3A/);
    expect((await getJson(api('/admin/datastore'), { Cookie: h.Cookie! })).status).toBe(200);
    const none = await getJson(api('/admin/datastore'), {});
    expect(none.status).toBe(401);
    expect(none.text).toBe('authentication failed - no authentication credentials provided.');
  });
});

describe('mail auth', () => {
  it('has no API tokens: any token header is refused', async () => {
    s = await sim('mail');
    const r = await getJson(api('/version'), { Authorization: 'PMGAPIToken=svc@pmg!mon:secret' });
    expect(r.status).toBe(401);
    expect(r.statusText).toBe('API tokens not implemented');
  });

  it('logs in with realm and uses the PMGAuthCookie', async () => {
    s = await sim('mail');
    const login = await fetch(api('/access/ticket'), {
      method: 'POST',
      body: new URLSearchParams({ username: 'svc', realm: 'pmg', password: USERS.mail.password }),
    });
    const { data } = (await login.json()) as { data: Record<string, string> };
    expect(data.role).toBe('audit');
    expect(
      (await getJson(api('/statistics/mail'), { Cookie: `PMGAuthCookie=${encodeURIComponent(data.ticket!)}` })).status,
    ).toBe(200);
    expect((await getJson(api('/statistics/mail'), { Cookie: 'PVEAuthCookie=x' })).status).toBe(401);
  });
});

describe('parseTokenSpec', () => {
  it('splits USER@REALM!ID=SECRET and USER@REALM!ID:SECRET', () => {
    expect(parseTokenSpec('svc@pve!mon=secret')).toEqual({ tokenId: 'svc@pve!mon', secret: 'secret' });
    expect(parseTokenSpec('svc@pbs!mon:se=cret')).toEqual({ tokenId: 'svc@pbs!mon', secret: 'se=cret' });
    expect(() => parseTokenSpec('svc@pve')).toThrow(/USER@REALM!ID=SECRET/);
  });
});
