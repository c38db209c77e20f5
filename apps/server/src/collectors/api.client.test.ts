import { X509Certificate } from 'node:crypto';
import { FakeClock } from '@svc/platform';
import { generate } from 'selfsigned';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeTimers, systemTimers } from '../platform/jobs/index.js';
import { ApiError } from './api.errors.js';
import type { ConnectionConfig } from './api.factory.js';
import { sendJson, startTestServer } from './api.test-server.js';
import { createBakClient } from './bak/bak.client.js';
import { createHvClient } from './hv/hv.client.js';
import { createMailClient } from './mail/mail.client.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

async function server(handler: Parameters<typeof startTestServer>[0], tls?: { key: string; cert: string }) {
  const s = await startTestServer(handler, tls);
  cleanups.push(s.close);
  return s;
}

function deps(clock = new FakeClock(Date.UTC(2026, 0, 1))) {
  return { clock, timers: systemTimers };
}

const token = { type: 'token', tokenId: 'svc@pve!mon', secret: 'aaaa-bbbb' } as const;
const password = { type: 'password', username: 'root@pam', password: 's3cret' } as const;

async function caught(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof ApiError) return e;
    throw e;
  }
  throw new Error('expected an ApiError');
}

describe('auth headers', () => {
  it('sends the hv and bak token formats and refuses tokens for mail', async () => {
    const s = await server((_req, res) => sendJson(res, 200, { data: { version: '9.1.3' } }));
    const hv = createHvClient({ host: s.url, credentials: token }, deps());
    const bak = createBakClient({ host: s.url, credentials: { ...token, tokenId: 'svc@pbs!mon' } }, deps());
    const mail = createMailClient({ host: s.url, credentials: token }, deps());
    cleanups.push(hv.close, bak.close, mail.close);
    await hv.api.get('/version');
    await bak.api.get('/version');
    expect(s.seen[0]?.headers.authorization).toBe('PVEAPIToken=svc@pve!mon=aaaa-bbbb');
    expect(s.seen[1]?.headers.authorization).toBe('PBSAPIToken=svc@pbs!mon:aaaa-bbbb');
    expect((await caught(mail.api.get('/version'))).category).toBe('auth');
    expect(s.seen).toHaveLength(2);
  });

  it('logs in for a ticket, sends cookie + CSRF on writes, renews before expiry and after a 401', async () => {
    let logins = 0;
    let expireNext = false;
    const s = await server((req, res) => {
      if (req.url === '/api2/json/access/ticket') {
        logins++;
        return sendJson(res, 200, {
          data: { ticket: `PMG:root@pam:${logins}::sig+/=`, CSRFPreventionToken: `csrf${logins}` },
        });
      }
      if (expireNext) {
        expireNext = false;
        return sendJson(res, 401, { data: null, message: 'invalid ticket' });
      }
      sendJson(res, 200, { data: 'ok' });
    });
    const clock = new FakeClock(0);
    const mail = createMailClient({ host: s.url, credentials: password }, deps(clock));
    cleanups.push(mail.close);
    await mail.api.get('/statistics/mail');
    await mail.api.request({ method: 'POST', path: '/x', form: { a: '1' } });
    const [login, get, post] = s.seen;
    expect(login?.method).toBe('POST');
    expect(new URLSearchParams(login?.body).get('username')).toBe('root@pam');
    expect(get?.headers.cookie).toBe(`PMGAuthCookie=${encodeURIComponent('PMG:root@pam:1::sig+/=')}`);
    expect(get?.headers.csrfpreventiontoken).toBeUndefined();
    expect(post?.headers.csrfpreventiontoken).toBe('csrf1');
    clock.advance(89 * 60_000);
    await mail.api.get('/a');
    expect(logins).toBe(1);
    clock.advance(2 * 60_000);
    await mail.api.get('/b');
    expect(logins).toBe(2);
    expireNext = true;
    await mail.api.get('/c');
    expect(logins).toBe(3);
    expect(s.seen.at(-1)?.headers.cookie).toContain('3');
  });
});

describe('typed errors', () => {
  const respond = async (handler: Parameters<typeof startTestServer>[0], cfg: Partial<ConnectionConfig> = {}) => {
    const s = await server(handler);
    const c = createHvClient({ host: s.url, credentials: token, ...cfg }, deps());
    cleanups.push(c.close);
    return caught(c.api.get('/nodes'));
  };

  it('separates auth, server, rate-limit and client errors', async () => {
    expect((await respond((_q, r) => sendJson(r, 401, { data: null }))).category).toBe('auth');
    expect((await respond((_q, r) => sendJson(r, 403, { data: null }))).category).toBe('auth');
    const e500 = await respond((_q, r) => sendJson(r, 500, { data: null, message: 'boom\n' }));
    expect([e500.category, e500.status, e500.message]).toEqual(['server', 500, 'boom']);
    const e429 = await respond((_q, r) => sendJson(r, 429, 'slow down', { 'retry-after': '7' }));
    expect([e429.category, e429.retryAfterMs]).toEqual(['rate_limited', 7000]);
    expect((await respond((_q, r) => sendJson(r, 400, 'bad param'))).message).toBe('bad param');
  });

  it('turns invalid, truncated and envelope-less bodies into malformed errors', async () => {
    expect((await respond((_q, r) => sendJson(r, 200, '{"data": [1, 2'))).category).toBe('malformed');
    expect((await respond((_q, r) => sendJson(r, 200, '<html>'))).category).toBe('malformed');
    expect((await respond((_q, r) => sendJson(r, 200, { nodata: 1 }))).category).toBe('malformed');
    const cut = await respond((_q, r) => {
      r.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      r.write('{"data": [');
      r.destroy();
    });
    expect(['malformed', 'connectivity']).toContain(cut.category);
  });

  it('reports refused connections and timeouts as connectivity errors', async () => {
    const s = await server(() => {});
    await s.close();
    const c = createHvClient({ host: s.url, credentials: token }, deps());
    cleanups.push(c.close);
    expect((await caught(c.api.get('/nodes'))).category).toBe('connectivity');

    const silent = await server(() => {});
    const clock = new FakeClock(0);
    const timers = new FakeTimers(clock);
    const t = createHvClient({ host: silent.url, credentials: token, timeoutMs: 5_000 }, { clock, timers });
    cleanups.push(t.close);
    const pending = caught(t.api.get('/nodes'));
    while (silent.seen.length === 0) await new Promise((r) => setImmediate(r));
    await timers.advance(5_000);
    const err = await pending;
    expect([err.category, err.message]).toEqual(['connectivity', 'timeout after 5000 ms']);
  });

  it('reports an aborted signal as aborted', async () => {
    const s = await server(() => {});
    const c = createHvClient({ host: s.url, credentials: token }, deps());
    cleanups.push(c.close);
    const ctrl = new AbortController();
    const pending = caught(c.api.get('/nodes', undefined, ctrl.signal));
    ctrl.abort();
    expect((await pending).category).toBe('aborted');
  });
});

describe('TLS', () => {
  it('verifies by default, can skip verification, and accepts only the pinned fingerprint', async () => {
    const pems = await generate([{ name: 'commonName', value: 'hv1' }], { keySize: 2048 });
    const other = await generate([{ name: 'commonName', value: 'other' }], { keySize: 2048 });
    const s = await server((_q, r) => sendJson(r, 200, { data: 1 }), { key: pems.private, cert: pems.cert });
    const fp = new X509Certificate(pems.cert).fingerprint256;
    const otherFp = new X509Certificate(other.cert).fingerprint256;
    const mk = (cfg: Partial<ConnectionConfig>) => {
      const c = createHvClient({ host: s.url, credentials: token, ...cfg }, deps());
      cleanups.push(c.close);
      return c.api;
    };
    expect((await caught(mk({}).get('/version'))).category).toBe('tls');
    expect(await mk({ verifyTls: false }).get('/version')).toBe(1);
    expect(await mk({ fingerprint: fp }).get('/version')).toBe(1);
    expect(await mk({ fingerprint: fp.replaceAll(':', '').toLowerCase() }).get('/version')).toBe(1);
    const refused = await caught(mk({ fingerprint: otherFp, verifyTls: false }).get('/version'));
    expect(refused.category).toBe('tls');
    expect(refused.message).toContain('fingerprint');
  });
});
