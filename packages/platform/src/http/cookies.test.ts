import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { clearReplyCookie, parseCookieHeader, requestCookies, serializeCookie, setReplyCookie } from './cookies.js';

describe('cookies', () => {
  it('parses a Cookie header: trims, unquotes, decodes, first name wins, keeps malformed escapes', () => {
    expect(parseCookieHeader('a=1; b="two words"; c=%E2%9C%93; a=again; bad=%E0%A4%A; flag; =x')).toEqual({
      a: '1',
      b: 'two words',
      c: '✓',
      bad: '%E0%A4%A',
    });
  });

  it('serializes attributes in a stable order, SameSite=Lax unless told, and refuses a bad name', () => {
    expect(
      serializeCookie('svc_session', 'a b;c', {
        httpOnly: true,
        secure: true,
        sameSite: 'strict',
        path: '/',
        maxAge: 3600.7,
        expires: new Date(0),
      }),
    ).toBe(
      'svc_session=a%20b%3Bc; Max-Age=3600; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; Secure; SameSite=Strict',
    );
    expect(serializeCookie('x', 'y')).toBe('x=y; SameSite=Lax');
    expect(() => serializeCookie('bad name', 'v')).toThrow(/Invalid cookie name/);
  });

  it('reads cookies lazily per request and sets, replaces and clears them on the reply', async () => {
    const app = Fastify();
    app.get('/', (req, reply) => {
      const seen = requestCookies(req);
      setReplyCookie(reply, 'a', 'first', { path: '/' });
      setReplyCookie(reply, 'b', 'kept', { httpOnly: true });
      setReplyCookie(reply, 'a', 'second', { path: '/' }); // same name and path: replaces, not duplicates
      clearReplyCookie(reply, 'gone');
      return { seen, same: requestCookies(req) === seen };
    });
    const res = await app.inject({ method: 'GET', url: '/', headers: { cookie: 'svc_session=abc; other=1' } });
    expect(res.json()).toEqual({ seen: { svc_session: 'abc', other: '1' }, same: true });
    expect(res.headers['set-cookie']).toEqual([
      'a=second; Path=/; SameSite=Lax',
      'b=kept; HttpOnly; SameSite=Lax',
      'gone=; Max-Age=0; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; SameSite=Lax',
    ]);
    const none = await app.inject({ method: 'GET', url: '/' });
    expect(none.json().seen).toEqual({});
    await app.close();
  });
});
