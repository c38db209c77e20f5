import { resourceListQuery } from '@svc/contract';
import { describe, expect, it } from 'vitest';
import type { Resource } from './resources.model.js';
import { queryResources, sortByName } from './resources.query.js';

const types = ['host', 'vm', 'lxc', 'storage'] as const;
const statuses = ['online', 'offline', 'warning', 'unknown'] as const;

/** 5,000 resources with predictable spread. */
const estate: Resource[] = Array.from({ length: 5000 }, (_, i) => ({
  id: `r-${String(i).padStart(5, '0')}`,
  type: types[i % 4]!,
  name: `Res-${String(i).padStart(5, '0')}`,
  status: statuses[i % 3]!,
  sources: i % 10 === 0 ? ['hv', 'agent'] : ['hv'],
  sourceStatus: {},
  parentId: i % 4 === 0 ? undefined : `r-${String(i - (i % 4)).padStart(5, '0')}`,
  cluster: i % 2 === 0 ? 'east' : 'west',
  tags: i % 7 === 0 ? ['prod', 'db'] : i % 7 === 1 ? ['prod'] : [],
  lastSeen: 10_000 - i,
  identity: {},
  metrics: {},
  members: [],
}));

const q = (input: Record<string, string>) => resourceListQuery.parse(input);

describe('queryResources over 5,000 resources', () => {
  it('defaults: page 1, 50 per page, sorted by name', () => {
    const r = queryResources(estate, q({}));
    expect(r.meta).toEqual({ page: 1, limit: 50, total: 5000, totalPages: 100 });
    expect(r.data).toHaveLength(50);
    expect(r.data[0]!.name).toBe('Res-00000');
    expect(r.aggregations.total).toBe(5000);
    expect(r.aggregations.byType).toEqual({ host: 1250, vm: 1250, lxc: 1250, storage: 1250 });
    expect(r.aggregations.bySource).toEqual({ hv: 5000, agent: 500 });
  });

  it('filters by comma lists, and aggregations cover the filtered set only', () => {
    const r = queryResources(estate, q({ type: 'vm,lxc', status: 'online' }));
    expect(r.data.every((x) => ['vm', 'lxc'].includes(x.type) && x.status === 'online')).toBe(true);
    expect(r.aggregations.byStatus).toEqual({ online: r.meta.total });
    expect(Object.keys(r.aggregations.byType).sort()).toEqual(['lxc', 'vm']);
  });

  it('q is a case-insensitive contains; tags must all match; parent and cluster are exact', () => {
    expect(queryResources(estate, q({ q: 'RES-001' })).meta.total).toBe(100);
    const tagged = queryResources(estate, q({ tags: 'prod,db', limit: '100' }));
    expect(tagged.meta.total).toBe(715);
    expect(tagged.data.every((x) => x.tags.includes('db'))).toBe(true);
    expect(queryResources(estate, q({ parent: 'r-00004' })).meta.total).toBe(3);
    expect(queryResources(estate, q({ cluster: 'east', source: 'agent' })).meta.total).toBe(500);
  });

  it('sorts by status, type and lastSeen in both orders', () => {
    const byStatus = queryResources(estate, q({ sort: 'status' })).data;
    expect(byStatus[0]!.status).toBe('offline');
    const seen = queryResources(estate, q({ sort: 'lastSeen', order: 'desc' })).data;
    expect(seen[0]!.lastSeen).toBe(10_000);
    const typeDesc = queryResources(estate, q({ sort: 'type', order: 'desc' })).data;
    expect(typeDesc[0]!.type).toBe('vm');
  });

  it('a cached name order gives the same pages as sorting per request', () => {
    const order = sortByName(estate);
    const inputs: Record<string, string>[] = [
      {},
      { order: 'desc', page: '3' },
      { q: 'res-00', tags: 'prod', limit: '100' },
    ];
    for (const input of inputs) {
      expect(queryResources(estate, q(input), order)).toEqual(queryResources(estate, q(input)));
    }
  });

  it('pagination boundaries: the last page is partial, past the end is empty', () => {
    const last = queryResources(estate, q({ limit: '100', page: '50' }));
    expect(last.data).toHaveLength(100);
    expect(last.data.at(-1)!.name).toBe('Res-04999');
    const partial = queryResources(estate, q({ limit: '30', page: '167' }));
    expect(partial.data).toHaveLength(20);
    expect(partial.meta.totalPages).toBe(167);
    expect(queryResources(estate, q({ page: '1000' })).data).toEqual([]);
  });

  it.each([
    [{ type: 'vm,banana' }, 'type', /banana.*accepts host, vm/],
    [{ status: 'down' }, 'status', /down/],
    [{ source: 'vmware' }, 'source', /vmware/],
    [{ limit: '101' }, 'limit', /1 to 100/],
    [{ limit: '0' }, 'limit', /./],
    [{ page: '0' }, 'page', /./],
    [{ sort: 'size' }, 'sort', /./],
    [{ order: 'up' }, 'order', /./],
  ])('refuses %o naming %s', (input, field, message) => {
    const r = resourceListQuery.safeParse(input);
    expect(r.success).toBe(false);
    expect(r.error!.issues[0]!.path).toEqual([field]);
    expect(r.error!.issues[0]!.message).toMatch(message);
  });
});
