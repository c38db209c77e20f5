import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import type { Simulator } from './index.js';
import { getJson, sim, tokenHeader } from './test-support.js';

let s: Simulator | undefined;
afterEach(async () => {
  await s?.close();
  s = undefined;
});

describe('envelope and error formats', () => {
  it('hv: {"data":...} with JSON content type, total beside data on task lists', async () => {
    s = await sim('hv');
    const v = await getJson(`${s.url}/api2/json/version`, tokenHeader('hv'));
    expect(v.headers.get('content-type')).toBe('application/json;charset=UTF-8');
    expect(v.body).toEqual({ data: { version: '9.1.3', release: '9.1', repoid: 'e5010dce' } });
    const t = await getJson(`${s.url}/api2/json/nodes/pve1/tasks?limit=2`, tokenHeader('hv'));
    expect((t.body.data as unknown[]).length).toBe(2);
    expect(t.body.total).toBeGreaterThan(2);
  });

  it('hv: unknown path or method is 501, bad parameters 400 with per-parameter errors', async () => {
    s = await sim('hv');
    const unknown = await getJson(`${s.url}/api2/json/cluster/ceph/df`, tokenHeader('hv'));
    expect(unknown.status).toBe(501);
    expect(unknown.statusText).toBe("Method 'GET /cluster/ceph/df' not implemented");
    const post = await fetch(`${s.url}/api2/json/nodes`, { method: 'POST', headers: tokenHeader('hv') });
    expect(post.status).toBe(501);
    const bad = await getJson(`${s.url}/api2/json/cluster/resources?type=qemu&x=1`, tokenHeader('hv'));
    expect(bad.status).toBe(400);
    expect(bad.statusText).toBe('Parameter verification failed.');
    expect(bad.body).toEqual({
      data: null,
      errors: {
        type: "value 'qemu' does not have a value in the enumeration 'vm, storage, node, sdn'",
        x: 'property is not defined in schema and the schema does not allow additional properties',
      },
      message: 'Parameter verification failed.\n',
    });
  });

  it('hv: a missing guest gives the real 500, --no-strict lets unknown parameters through', async () => {
    s = await sim('hv', { strict: false });
    const missing = await getJson(`${s.url}/api2/json/nodes/pve1/qemu/999/status/current`, tokenHeader('hv'));
    expect(missing.status).toBe(500);
    expect(missing.statusText).toBe("Configuration file 'nodes/pve1/qemu-server/999.conf' does not exist");
    expect((await getJson(`${s.url}/api2/json/nodes?whatever=1`, tokenHeader('hv'))).status).toBe(200);
  });

  it('bak: plain-text errors, 404 for unknown paths', async () => {
    s = await sim('bak');
    const nf = await getJson(`${s.url}/api2/json/nope`, tokenHeader('bak'));
    expect(nf.status).toBe(404);
    expect(nf.text).toBe("Path '/api2/json/nope' not found.");
    const bad = await getJson(
      `${s.url}/api2/json/admin/datastore/store1/snapshots?backup-type=lxc`,
      tokenHeader('bak'),
    );
    expect(bad.status).toBe(400);
    expect(bad.text).toMatch(
      /^Parameter verification failed\.\n\nparameter 'backup-type': value 'lxc' does not have a value/,
    );
  });
});

describe('svc-hv-sim binary', () => {
  it('prints a machine-readable ready line and serves the API', async () => {
    const cli = new URL('./cli.ts', import.meta.url).pathname;
    const args = [
      '--import',
      'tsx',
      cli,
      '--kind',
      'hv',
      '--port',
      '0',
      '--nodes',
      '2',
      '--cluster',
      'c',
      '--token',
      'svc@pve!mon=secret',
    ];
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      const lines = createInterface({ input: child.stdout! });
      let ready: { url: string; urls: Array<{ node: string; url: string }> } | undefined;
      for await (const line of lines) {
        if (line.startsWith('{')) {
          ready = JSON.parse(line);
          break;
        }
      }
      expect(ready!.urls.map((u) => u.node)).toEqual(['pve1', 'pve2']);
      const r = await getJson(`${ready!.url}/api2/json/version`, { Authorization: 'PVEAPIToken=svc@pve!mon=secret' });
      expect(r.status).toBe(200);
    } finally {
      child.kill('SIGTERM');
    }
  });
});
