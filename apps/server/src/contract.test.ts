import { readFileSync } from 'node:fs';
import { routes, toRouterPath } from '@svc/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiPath, renderOpenApi } from '../../../scripts/write-openapi.js';
import { createTestApp, type TestApp } from './testing/app.js';

/** Fills `{param}` segments with harmless values so every route can be requested. */
function concretePath(path: string): string {
  return path.replace(/\{[A-Za-z0-9_]+\}/g, 'x1');
}

describe('the contract', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('the committed OpenAPI document matches the route table (run `npm run contract:openapi` to refresh)', () => {
    expect(readFileSync(openApiPath, 'utf8')).toBe(renderOpenApi());
  });

  it('the served OpenAPI document is the committed one', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(`${JSON.stringify(res.json(), null, 2)}\n`).toBe(renderOpenApi());
  });

  it('binds every route in the table exactly once, and nothing else under /api', () => {
    const table = Object.values(routes).map((r) => `${r.method} ${toRouterPath(r.path)}`);
    expect(new Set(table).size).toBe(table.length);
    for (const r of Object.values(routes)) {
      expect(t.app.hasRoute({ method: r.method, url: toRouterPath(r.path) }), `${r.method} ${r.path}`).toBe(true);
    }
    const printed = t.app.printRoutes({ commonPrefix: false, method: 'GET' });
    expect(printed.length).toBeGreaterThan(0);
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
