import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Scope } from '@svc/contract';
import type { TestApp } from './app.js';

export const ADMIN = { username: 'admin', password: 'correct horse battery' };

/** Raises the per-address limits so suites that log in often are not throttled (rate limits have their own test). */
export const relaxedLimits = { SVC_RATE_LIMIT_AUTH: '10000/1m', SVC_RATE_LIMIT_RECOVERY: '10000/1m' };

export interface Session {
  cookie: string;
  csrf: string;
  /** Headers for a session-authenticated write: cookies plus the CSRF header. */
  write: Record<string, string>;
}

export function bootstrapToken(t: TestApp): string {
  return readFileSync(join(t.config.dataDir, '.bootstrap_token'), 'utf8').trim();
}

/** Runs first-run setup with the bootstrap token file, as an operator would. */
export async function setUpAdmin(t: TestApp, extra: Record<string, unknown> = {}): Promise<void> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/security/quick-setup',
    headers: { 'x-setup-token': bootstrapToken(t) },
    payload: { ...ADMIN, ...extra },
  });
  if (res.statusCode !== 200) throw new Error(`quick-setup failed: ${res.statusCode} ${res.body}`);
}

export async function login(t: TestApp, creds = ADMIN, rememberMe = false): Promise<Session> {
  const res = await t.app.inject({ method: 'POST', url: '/api/login', payload: { ...creds, rememberMe } });
  if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
  const jar = Object.fromEntries(res.cookies.map((c) => [c.name, c.value]));
  const cookie = `svc_session=${jar.svc_session}; svc_csrf=${jar.svc_csrf}`;
  const csrf = jar.svc_csrf as string;
  return { cookie, csrf, write: { cookie, 'x-csrf-token': csrf } };
}

/** Creates an API token through the API with an admin session; returns the raw token. */
export async function createToken(t: TestApp, s: Session, scopes: Scope[], name = 'test'): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/security/tokens',
    headers: s.write,
    payload: { name, scopes },
  });
  if (res.statusCode !== 201) throw new Error(`token creation failed: ${res.statusCode} ${res.body}`);
  return res.json().token as string;
}
