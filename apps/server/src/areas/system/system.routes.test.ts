import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/app.js';

describe('system endpoints', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('GET /api/health reports healthy with integer seconds', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toEqual({
      status: 'healthy',
      timestamp: Math.floor(t.clock.now() / 1000),
      uptime: 0,
      devModeSSH: false,
      dependencies: { database: true },
      mockMode: false,
    });
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('uptime follows the clock', async () => {
    t.clock.advance(90_500);
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.json().uptime).toBe(90);
  });

  it('HEAD /api/health answers like GET without a body', async () => {
    const res = await t.app.inject({ method: 'HEAD', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('');
    expect(res.headers['content-type']).toContain('application/json');
  });

  it('GET /api/version gives a plain semantic version and build facts', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/version' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(body.version.startsWith('v')).toBe(false);
    expect(body.latestVersion).toBe(body.version);
    expect(body.updateAvailable).toBe(false);
    expect(body.channel).toBe('stable');
    expect(new Date(body.buildTime).toISOString()).toBe(body.buildTime);
    expect(['systemd', 'docker', 'development', 'binary']).toContain(body.deploymentType);
  });

  it('HEAD /api/version and /api/agent/version answer 200', async () => {
    for (const url of ['/api/version', '/api/agent/version']) {
      const res = await t.app.inject({ method: 'HEAD', url });
      expect(res.statusCode).toBe(200);
    }
  });

  it('GET /api/agent/version gives the server version', async () => {
    const version = (await t.app.inject({ method: 'GET', url: '/api/version' })).json().version;
    const res = await t.app.inject({ method: 'GET', url: '/api/agent/version' });
    expect(res.json()).toEqual({ version });
  });

  it('GET /api/config and /api/server/info refuse callers without credentials (GET and HEAD)', async () => {
    for (const url of ['/api/config', '/api/server/info']) {
      for (const method of ['GET', 'HEAD'] as const) {
        const res = await t.app.inject({ method, url });
        expect(res.statusCode).toBe(401);
      }
      const body = (await t.app.inject({ method: 'GET', url })).json();
      expect(body.error).toBe('unauthorized');
    }
  });

  it('serves the OpenAPI document and the interactive reference', async () => {
    const doc = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(doc.statusCode).toBe(200);
    expect(doc.json().openapi).toBe('3.1.0');
    const page = await t.app.inject({ method: 'GET', url: '/api/docs' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('/api/openapi.json'.replace('/api/openapi.json', '/api/docs/init.js'));
    const js = await t.app.inject({ method: 'GET', url: '/api/docs/swagger-ui-bundle.js' });
    expect(js.statusCode).toBe(200);
    expect(js.headers['content-type']).toContain('javascript');
    expect(js.body.length).toBeGreaterThan(100_000);
    const missing = await t.app.inject({ method: 'GET', url: '/api/docs/secret.txt' });
    expect(missing.statusCode).toBe(404);
  });
});
