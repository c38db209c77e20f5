import type { Scope } from '@svc/contract';
import { createTestDatabase } from '@svc/platform/testing';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Principal } from '../../platform/http/principal.js';
import { LiveState } from '../../state/index.js';
import { createTestApp, type TestApp } from '../../testing/app.js';
import { syntheticEstate } from '../../testing/estate.js';

const AT = Date.UTC(2026, 10, 22, 12, 0, 0);

function tokenWith(scopes: Scope[]): () => Promise<Principal> {
  return async () => ({ kind: 'token', username: 'operator', isAdmin: false, scopes, orgId: 'default' });
}

describe.each(['sqlite', 'postgres'] as const)('resource metadata on %s', (dialect) => {
  let t: TestApp;
  let drop = async () => {};
  const estate = syntheticEstate('hv1', 200, AT);
  beforeAll(async () => {
    let databaseUrl: string | undefined;
    if (dialect === 'postgres') {
      const pg = await createTestDatabase(inject('pgUrl'));
      databaseUrl = pg.url;
      drop = pg.drop;
    }
    const state = new LiveState({ clock: { now: () => AT } });
    state.applyPoll('hv1', estate);
    t = await createTestApp({
      databaseUrl,
      overrides: { state, authenticate: tokenWith(['monitoring:read', 'monitoring:write']) },
    });
  });
  afterAll(async () => {
    await t.close();
    await drop();
  });
  const call = async (method: 'GET' | 'PUT' | 'DELETE', url: string, payload?: object) => {
    const res = await t.app.inject({ method, url, payload });
    return { status: res.statusCode, body: res.body ? res.json() : undefined };
  };

  it.each([['/api/hosts/metadata'], ['/api/guests/metadata'], ['/api/ctr/metadata'], ['/api/ctr/hosts/metadata']])(
    'CRUD under %s',
    async (prefix) => {
      expect((await call('GET', `${prefix}/item-1`)).status).toBe(404);
      const put = await call('PUT', `${prefix}/item-1`, {
        notes: 'Rack 4 → top ✓, 45 °C max',
        tags: ['rack4', 'rack4', 'critical'],
        customUrls: [{ name: 'IPMI', url: 'https://ipmi.example/' }],
      });
      expect(put.status).toBe(200);
      expect(put.body).toMatchObject({ id: 'item-1', tags: ['rack4', 'critical'], updatedBy: 'operator' });
      expect((await call('GET', `${prefix}/item-1`)).body.notes).toBe('Rack 4 → top ✓, 45 °C max');
      await call('PUT', `${prefix}/item-2`, { tags: ['x'] });
      const list = await call('GET', prefix);
      expect(list.body.meta.total).toBe(2);
      expect(list.body.data.map((m: { id: string }) => m.id)).toEqual(['item-1', 'item-2']);
      expect((await call('PUT', `${prefix}/item-1`, { notes: 'changed' })).body).toMatchObject({
        notes: 'changed',
        tags: [],
      });
      expect((await call('DELETE', `${prefix}/item-1`)).status).toBe(204);
      expect((await call('DELETE', `${prefix}/item-1`)).status).toBe(404);
      expect((await call('GET', prefix)).body.meta.total).toBe(1);
    },
  );

  it.each([
    ['javascript:alert(1)'],
    ['data:text/html,<script>alert(1)</script>'],
    ['ftp://files.example/'],
    ['file:///etc/passwd'],
    ['not a url'],
  ])('refuses the custom URL %s with 400 and changes nothing', async (url) => {
    const res = await call('PUT', '/api/hosts/metadata/bad', { customUrls: [{ name: 'x', url }] });
    expect(res.status).toBe(400);
    expect(res.body.details.issues[0].field).toBe('customUrls.0.url');
    expect(res.body.message).toMatch(/http/);
    expect((await call('GET', '/api/hosts/metadata/bad')).status).toBe(404);
  });

  it('refuses notes over 10,000 characters and non-string tags', async () => {
    expect((await call('PUT', '/api/guests/metadata/g', { notes: 'x'.repeat(10_001) })).status).toBe(400);
    expect((await call('PUT', '/api/guests/metadata/g', { notes: 'x'.repeat(10_000) })).status).toBe(200);
    expect((await call('PUT', '/api/guests/metadata/g', { tags: [1] })).status).toBe(400);
  });

  it('metadata tags take part in /api/resources tag filters (by live-state id or resource id)', async () => {
    const g = estate.vms[0]!;
    expect((await call('GET', '/api/resources?tags=backup-gold')).body.meta.total).toBe(0);
    await call('PUT', `/api/guests/metadata/${encodeURIComponent(g.id)}`, { tags: ['backup-gold'] });
    const hit = await call('GET', '/api/resources?tags=backup-gold');
    expect(hit.body.meta.total).toBe(1);
    expect(hit.body.data[0].name).toBe(g.name);
    const node = (await call('GET', '/api/resources?type=host&limit=1')).body.data[0];
    await call('PUT', `/api/hosts/metadata/${node.id}`, { tags: ['backup-gold'] });
    expect((await call('GET', '/api/resources?tags=backup-gold')).body.meta.total).toBe(2);
    expect((await call('GET', '/api/resources?tags=backup-gold&type=host')).body.data[0].id).toBe(node.id);
    await call('DELETE', `/api/guests/metadata/${encodeURIComponent(g.id)}`);
    expect((await call('GET', '/api/resources?tags=backup-gold')).body.meta.total).toBe(1);
  });

  it('every change is audited', async () => {
    const rows = await t.db.db
      .selectFrom('audit_events')
      .select('event')
      .where('event', 'like', 'resource_metadata%')
      .execute();
    expect(rows.length).toBeGreaterThan(10);
  });
});
