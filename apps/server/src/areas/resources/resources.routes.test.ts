import type { Scope } from '@svc/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '../../platform/http/principal.js';
import { LiveState } from '../../state/index.js';
import { createTestApp, type TestApp } from '../../testing/app.js';
import { recordMetrics, syntheticEstate } from '../../testing/estate.js';
import { guestStatus } from './resources.adapter.js';

const AT = Date.UTC(2026, 10, 22, 12, 0, 0);
const GUESTS = 3000;
const estate = syntheticEstate('hv1', GUESTS, AT);
const guests = [...estate.vms, ...estate.containers];

function tokenWith(scopes: Scope[]): () => Promise<Principal> {
  return async () => ({ kind: 'token', username: 'tester', isAdmin: false, scopes, orgId: 'default' });
}

describe('GET /api/resources over 3,120 resources', () => {
  let t: TestApp;
  beforeAll(async () => {
    const state = new LiveState({ clock: { now: () => AT } });
    state.applyPoll('hv1', estate);
    t = await createTestApp({ overrides: { state, authenticate: tokenWith(['monitoring:read']) } });
  });
  afterAll(() => t.close());
  const get = async (url: string) => {
    const res = await t.app.inject({ method: 'GET', url });
    return { status: res.statusCode, body: res.json() };
  };

  it('defaults: page 1 of 50 by name, counts over everything', async () => {
    const { status, body } = await get('/api/resources');
    expect(status).toBe(200);
    expect(body.meta).toEqual({ page: 1, limit: 50, total: 3120, totalPages: 63 });
    expect(body.data).toHaveLength(50);
    expect(body.data[0].name).toBe('ct-000002');
    expect(body.aggregations.byType).toEqual({ host: 60, vm: 2000, lxc: 1000, storage: 60 });
    expect(body.aggregations.bySource).toEqual({ hv: 3120 });
    expect(body.data[0].lastSeen).toMatch(/^2026-11-22T/);
  });

  it('type and status lists filter, and aggregations cover only the filtered set', async () => {
    const expected = estate.vms.filter((g) => guestStatus(g.status) === 'online').length;
    const { body } = await get('/api/resources?type=vm&status=online&limit=100');
    expect(body.meta.total).toBe(expected);
    expect(body.aggregations).toEqual({
      total: expected,
      byType: { vm: expected },
      byStatus: { online: expected },
      bySource: { hv: expected },
    });
    expect(body.data.every((r: { type: string; status: string }) => r.type === 'vm' && r.status === 'online')).toBe(
      true,
    );
  });

  it('tags must all match; q is a case-insensitive name contains; cluster and source filter', async () => {
    const prodWeb = guests.filter((g) => g.tags === 'prod;web').length;
    expect((await get('/api/resources?tags=prod,web')).body.meta.total).toBe(prodWeb);
    expect((await get('/api/resources?tags=prod')).body.meta.total).toBe(2 * prodWeb);
    const named = guests.filter((g) => g.name.includes('vm-0001')).length;
    expect((await get('/api/resources?q=VM-0001')).body.meta.total).toBe(named);
    expect((await get('/api/resources?cluster=hv1&source=hv')).body.meta.total).toBe(3120);
    expect((await get('/api/resources?cluster=elsewhere')).body.meta.total).toBe(0);
  });

  it('parent filters to a node’s guests and storage, the same set as /children', async () => {
    const hosts = (await get('/api/resources?type=host&sort=name&limit=1')).body.data;
    const node = hosts[0];
    const { body } = await get(`/api/resources?parent=${node.id}&limit=100`);
    expect(body.meta.total).toBe(51);
    const children = await get(`/api/resources/${node.id}/children`);
    expect(children.body.meta.total).toBe(51);
    expect(new Set(children.body.data.map((r: { id: string }) => r.id))).toEqual(
      new Set(body.data.map((r: { id: string }) => r.id)),
    );
  });

  it('sorts by lastSeen, status and type in both orders', async () => {
    const desc = (await get('/api/resources?sort=lastSeen&order=desc&type=vm,lxc')).body.data;
    expect(Date.parse(desc[0].lastSeen)).toBe(AT);
    expect(Date.parse(desc[0].lastSeen)).toBeGreaterThanOrEqual(Date.parse(desc[49].lastSeen));
    expect((await get('/api/resources?sort=status')).body.data[0].status).toBe('offline');
    expect((await get('/api/resources?sort=type&order=desc')).body.data[0].type).toBe('vm');
    const asc = (await get('/api/resources?sort=name&order=asc&type=vm')).body.data.map(
      (r: { name: string }) => r.name,
    );
    expect(asc).toEqual([...asc].sort());
  });

  it('pagination boundaries: the last page is partial, past the end is empty, limit 100 is accepted', async () => {
    const last = await get('/api/resources?limit=100&page=32');
    expect(last.body.data).toHaveLength(20);
    expect(last.body.meta).toEqual({ page: 32, limit: 100, total: 3120, totalPages: 32 });
    const past = await get('/api/resources?limit=100&page=33');
    expect(past.status).toBe(200);
    expect(past.body.data).toEqual([]);
    const first = (await get('/api/resources?limit=1')).body;
    expect(first.data).toHaveLength(1);
    expect(first.meta.totalPages).toBe(3120);
  });

  it.each([
    ['type=vm,banana', 'type', /banana.*accepts host, vm/],
    ['status=down', 'status', /down/],
    ['source=vmware', 'source', /vmware/],
    ['limit=101', 'limit', /1 to 100/],
    ['limit=0', 'limit', /./],
    ['page=0', 'page', /./],
    ['sort=size', 'sort', /name/],
    ['order=up', 'order', /asc/],
  ])('400 for %s names %s and what it accepts', async (query, field, message) => {
    const { status, body } = await get(`/api/resources?${query}`);
    expect(status).toBe(400);
    expect(body.error).toBe('validation_failed');
    expect(body.message).toContain(field);
    expect(body.details.issues[0].field).toBe(field);
    expect(body.details.issues[0].message).toMatch(message);
  });

  it('one resource by id; 404 for unknown ids, children and metrics of unknown ids', async () => {
    const first = (await get('/api/resources?type=vm&limit=1')).body.data[0];
    const one = await get(`/api/resources/${first.id}`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual(first);
    expect(first.id).toMatch(/^vm-[0-9a-f]{16}$/);
    for (const url of ['/api/resources/vm-0000', '/api/resources/nope/children', '/api/resources/nope/metrics']) {
      const r = await get(url);
      expect(r.status).toBe(404);
      expect(r.body.error).toBe('not_found');
    }
  });

  it('stats count every resource and roll health up', async () => {
    const { body } = await get('/api/resources/stats');
    expect(body.total).toBe(3120);
    expect(body.byType.vm).toBe(2000);
    expect(body.health.healthy + body.health.degraded + body.health.down + body.health.unknown).toBe(3120);
    expect(body.overrides).toEqual({ links: 0, exclusions: 0 });
    expect(body.lastUpdate).toBe(new Date(AT).toISOString());
  });

  it('metrics: current values plus the last hour from the metrics store', async () => {
    const g = estate.vms[0]!;
    const now = t.clock.now();
    await recordMetrics(
      t.db,
      t.clock,
      Array.from({ length: 30 }, (_, i) => ({
        orgId: 'default',
        resourceType: 'vm' as const,
        resourceId: g.id,
        metric: 'cpu' as const,
        value: i,
        timestamp: now - 1_800_000 + i * 60_000,
      })),
    );
    const vm = (await get(`/api/resources?q=${g.name}`)).body.data[0];
    const { status, body } = await get(`/api/resources/${vm.id}/metrics`);
    expect(status).toBe(200);
    expect(body.current).toMatchObject({ cpu: 0, memory: 0 });
    expect(body.history.resourceType).toBe('vm');
    const cpu = body.history.series.find((s: { metric: string }) => s.metric === 'cpu');
    expect(cpu.points.length).toBeGreaterThan(10);
    const storage = (await get('/api/resources?type=storage&limit=1')).body.data[0];
    expect((await get(`/api/resources/${storage.id}/metrics`)).body.history.resourceType).toBe('storage');
  });

  it('a guest keeps its id when it migrates to another node', async () => {
    const g = estate.vms[1]!;
    const before = (await get(`/api/resources?q=${g.name}`)).body.data[0];
    const moved = syntheticEstate('hv1', GUESTS, AT + 10_000);
    const m = moved.vms.find((x) => x.vmid === g.vmid)!;
    m.node = 'node59';
    m.id = `hv1:node59:${g.vmid}`;
    const state = new LiveState({ clock: { now: () => AT } });
    state.applyPoll('hv1', moved);
    const t2 = await createTestApp({ overrides: { state, authenticate: tokenWith(['monitoring:read']) } });
    const after = (await t2.app.inject({ method: 'GET', url: `/api/resources/${before.id}` })).json();
    expect(after.id).toBe(before.id);
    expect(after.parentId).not.toBe(before.parentId);
    await t2.close();
  });
});
