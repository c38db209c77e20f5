import { readFileSync } from 'node:fs';
import { type RouteDef, routes as routeTable, type Scope, scopes, toRouterPath } from '@svc/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiPath, renderOpenApi } from '../../../scripts/write-openapi.js';
import { createToken, login, relaxedLimits, setUpAdmin } from './testing/access.js';
import { createTestApp, type TestApp } from './testing/app.js';

const routes: Record<string, RouteDef> = routeTable;

/** Fills `{param}` segments with harmless values so every route can be requested. */
function concretePath(path: string): string {
  return path.replace(/\{[A-Za-z0-9_]+\}/g, 'x1');
}

describe('the contract', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: relaxedLimits });
  });
  afterAll(() => t.close());

  it('the committed OpenAPI document matches the route table (run `npm run contract:openapi` to refresh)', () => {
    expect(readFileSync(openApiPath, 'utf8')).toBe(renderOpenApi());
  });

  it('the served OpenAPI document is the committed one', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(`${JSON.stringify(res.json(), null, 2)}\n`).toBe(renderOpenApi());
  });

  it('binds every route in the table exactly once', () => {
    const table = Object.values(routes).map((r) => `${r.method} ${toRouterPath(r.path)}`);
    expect(new Set(table).size).toBe(table.length);
    for (const r of Object.values(routes)) {
      expect(t.app.hasRoute({ method: r.method, url: toRouterPath(r.path) }), `${r.method} ${r.path}`).toBe(true);
    }
  });

  const nonPublic = Object.entries(routes).filter(([, r]) => r.access !== 'public');
  it.each(nonPublic.map(([id, r]) => [id, r.method, r.path] as const))(
    '%s (%s %s) answers 401 without credentials',
    async (_id, method, path) => {
      const res = await t.app.inject({ method, url: concretePath(path), payload: method === 'GET' ? undefined : {} });
      expect(res.statusCode).toBe(401);
      expect(res.json().error).toBe('unauthorized');
    },
  );

  it.each(nonPublic.map(([id, r]) => [id, r.method, r.path] as const))(
    '%s (%s %s) answers 401 to a made-up token',
    async (_id, method, path) => {
      const res = await t.app.inject({
        method,
        url: concretePath(path),
        headers: { 'x-api-token': 'not-a-real-token' },
        payload: method === 'GET' ? undefined : {},
      });
      expect(res.statusCode).toBe(401);
    },
  );
});

describe('access rules enumerated from the contract', () => {
  let t: TestApp;
  const tokens = new Map<string, string>();
  let full: string;
  beforeAll(async () => {
    t = await createTestApp({ env: relaxedLimits, overrides: { hasFeature: () => false } });
    await setUpAdmin(t);
    const s = await login(t);
    for (const scope of scopes) tokens.set(scope, await createToken(t, s, [scope], `only ${scope}`));
    full = tokens.get('*')!;
  });
  afterAll(() => t.close());

  /** A token holding one real scope that the route does not accept. */
  function lackingToken(accepted: readonly Scope[]): string {
    const other = scopes.find((sc) => sc !== '*' && !accepted.includes(sc))!;
    return tokens.get(other)!;
  }

  const scoped = Object.entries(routes).filter(
    ([, r]) => r.access === 'admin' || (r.access === 'auth' && (r.scopes?.length ?? 0) > 0),
  );
  it.each(scoped.map(([id, r]) => [id, r.method, r.path] as const))(
    '%s (%s %s) answers 403 forbidden to a token lacking its scope',
    async (id, method, path) => {
      const route = routes[id]!;
      const res = await t.app.inject({
        method,
        url: concretePath(path),
        headers: { 'x-api-token': lackingToken(route.scopes ?? []) },
        payload: method === 'GET' ? undefined : {},
      });
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toBe('forbidden');
    },
  );

  const gated = Object.entries(routes).filter(([, r]) => r.feature !== undefined);
  it('some routes are feature-gated', () => expect(gated.length).toBeGreaterThan(0));
  it.each(gated.map(([id, r]) => [id, r.method, r.path, r.feature] as const))(
    '%s (%s %s) answers 402 without the licence feature %s',
    async (_id, method, path, feature) => {
      const res = await t.app.inject({
        method,
        url: concretePath(path),
        headers: { 'x-api-token': full },
        payload: method === 'GET' ? undefined : {},
      });
      expect(res.statusCode).toBe(402);
      expect(res.json()).toMatchObject({ error: 'license_required', details: { feature } });
    },
  );
});
