import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Simulator } from './index.js';
import { validateRequest, validateReturns } from './schema-validate.js';
import { schemaFor } from './schemas.js';
import { authHeaders, sim } from './test-support.js';
import type { Kind } from './types.js';

/** Concrete values for every path parameter and required query parameter used in the schemas. */
function concrete(kind: Kind, s: Simulator, template: string): { path: string; query: Record<string, string> } {
  const guests = [...s.state.guestById.values()];
  const vm = guests.find((g) => g.type === 'qemu' && g.agent && g.running);
  const ct = guests.find((g) => g.type === 'lxc');
  const guest = template.includes('/lxc/') ? ct : vm;
  const values: Record<string, string> = {
    node: kind === 'bak' ? 'localhost' : kind === 'hv' ? (guest?.node ?? 'pve1') : 'pmg1',
    vmid: String(guest?.vmid),
    storage: 'local',
    store: 'store1',
    queue: 'deferred',
    userid: kind === 'bak' ? 'auto@pbs' : 'auto@pve',
    tokenid: 'made',
    'token-name': 'made',
  };
  const path = template.replace(/\{([^}]+)\}/g, (_, k: string) => values[k] ?? k);
  const query: Record<string, string> = {};
  if (template.endsWith('/rrddata')) query.timeframe = 'hour';
  if (template.endsWith('/file-read')) query.file = '/proc/meminfo';
  if (template === '/access/ticket')
    Object.assign(query, {
      username: `svc@${kind === 'hv' ? 'pve' : kind === 'bak' ? 'pbs' : 'pmg'}`,
      password: `${kind}-pass`,
    });
  if (template === '/access/acl')
    Object.assign(
      query,
      kind === 'bak'
        ? { path: '/', role: 'Audit', 'auth-id': 'auto@pbs!made' }
        : { path: '/', roles: 'PVEAuditor', tokens: 'auto@pve!made' },
    );
  return { path, query };
}

// Endpoints the simulated estate answers with the real "not available here" error instead of data.
const EXPECTED_ERRORS: Record<string, RegExp> = {
  'hv GET /cluster/ceph/status': /binary not installed/,
  'hv GET /nodes/{node}/ceph/status': /binary not installed/,
  'hv GET /nodes/{node}/ceph/pool': /binary not installed/,
};

for (const kind of ['hv', 'bak', 'mail'] as const) {
  describe(`${kind}: every official endpoint answers in the shape of its returns schema`, () => {
    let s: Simulator;
    let headers: Record<string, string>;
    beforeAll(async () => {
      s = await sim(kind, { nodes: 3, guestsPerNode: 6 });
      headers = await authHeaders(s, kind);
    });
    afterAll(() => s.close());

    for (const e of schemaFor(kind).endpoints) {
      it(`${e.method} ${e.path}`, async () => {
        const { path, query } = concrete(kind, s, e.path);
        const req = validateRequest(kind, e.method, path, query);
        expect(req.ok, JSON.stringify(req)).toBe(true);
        const qs = new URLSearchParams(query).toString();
        const init: RequestInit = { method: e.method, headers: { ...headers } };
        let url = `${s.url}/api2/json${path}`;
        if (e.method === 'GET') url += qs ? `?${qs}` : '';
        else {
          init.body = qs;
          (init.headers as Record<string, string>)['Content-Type'] = 'application/x-www-form-urlencoded';
        }
        const r = await fetch(url, init);
        const text = await r.text();
        const expected = EXPECTED_ERRORS[`${kind} ${e.method} ${e.path}`];
        if (expected) {
          expect(r.status).toBe(500);
          expect(r.statusText).toMatch(expected);
          return;
        }
        expect(r.status, text).toBe(200);
        const body = JSON.parse(text) as { data: unknown };
        expect(validateReturns(kind, e.method, path, body.data)).toEqual([]);
      });
    }
  });
}
