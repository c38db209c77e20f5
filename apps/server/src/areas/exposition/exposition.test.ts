import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LiveState } from '../../state/index.js';
import { createToken, login, relaxedLimits, setUpAdmin } from '../../testing/access.js';
import { createTestApp, type TestApp } from '../../testing/app.js';
import { syntheticEstate } from '../../testing/estate.js';

const AT = Date.UTC(2026, 10, 22, 12, 0, 0);

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

describe('GET /metrics (Prometheus exposition)', () => {
  let t: TestApp;
  let off: TestApp;
  let reader: string;
  let writerOnly: string;
  const estate = syntheticEstate('hv1', 20, AT);
  beforeAll(async () => {
    const state = new LiveState({ clock: { now: () => AT } });
    state.applyPoll('hv1', estate);
    t = await createTestApp({ env: relaxedLimits, overrides: { state } });
    await setUpAdmin(t);
    const s = await login(t);
    reader = await createToken(t, s, ['monitoring:read'], 'prometheus');
    writerOnly = await createToken(t, s, ['settings:read'], 'other');
    off = await createTestApp({ env: { ...relaxedLimits, SVC_METRICS_ENDPOINT: 'false' } });
    await setUpAdmin(off);
  });
  afterAll(async () => {
    await t.close();
    await off.close();
  });
  const scrape = (app: TestApp, token?: string) =>
    app.app.inject({ method: 'GET', url: '/metrics', headers: token ? { authorization: `Bearer ${token}` } : {} });

  it('serves process metrics and every resource with id, name, type, node and cluster labels', async () => {
    const res = await scrape(t, reader);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.body).toMatch(/^svc_process_cpu_user_seconds_total \d/m);
    expect(res.body).toMatch(/^svc_nodejs_heap_size_used_bytes \d/m);
    const vm = estate.vms[0]!;
    const line = res.body
      .split('\n')
      .find((l) => l.startsWith('svc_resource_cpu_percent{') && l.includes(`name="${vm.name}"`));
    expect(line).toMatch(
      new RegExp(
        `^svc_resource_cpu_percent\\{id="vm-[0-9a-f]{16}",name="${vm.name}",type="vm",node="${vm.node}",cluster="hv1"\\} 0$`,
      ),
    );
    expect(res.body).toContain('svc_resources 22');
    expect(res.body.match(/^svc_resource_up\{/gm)).toHaveLength(22);
  });

  it('401 without a token, 403 for a token without monitoring:read, 404 when disabled by config', async () => {
    expect((await scrape(t)).statusCode).toBe(401);
    expect((await scrape(t, writerOnly)).statusCode).toBe(403);
    const s = await login(off);
    const res = await off.app.inject({ method: 'GET', url: '/metrics', headers: { cookie: s.cookie } });
    expect(res.statusCode).toBe(404);
  });

  describe('scraped by a real Prometheus on loopback', () => {
    let prom: ChildProcess | undefined;
    afterAll(() => {
      prom?.kill('SIGTERM');
    });

    it('Prometheus scrapes with a bearer token and answers a query for one resource', async () => {
      await t.app.listen({ host: '127.0.0.1', port: 0 });
      const svcPort = (t.app.server.address() as { port: number }).port;
      const promPort = await freePort();
      const dir = mkdtempSync(join(tmpdir(), 'svc-prom-'));
      writeFileSync(
        join(dir, 'prometheus.yml'),
        [
          'global: { scrape_interval: 1s, scrape_timeout: 1s }',
          'scrape_configs:',
          '  - job_name: svc',
          '    metrics_path: /metrics',
          `    authorization: { type: Bearer, credentials: ${reader} }`,
          `    static_configs: [{ targets: ['127.0.0.1:${svcPort}'] }]`,
        ].join('\n'),
      );
      prom = spawn(
        '/usr/bin/prometheus',
        [
          `--config.file=${join(dir, 'prometheus.yml')}`,
          `--storage.tsdb.path=${join(dir, 'data')}`,
          `--web.listen-address=127.0.0.1:${promPort}`,
        ],
        { stdio: 'ignore' },
      );
      const vm = estate.vms[1]!;
      const query = encodeURIComponent(`svc_resource_memory_percent{name="${vm.name}",type="vm"}`);
      const deadline = Date.now() + 45_000;
      let result: { metric: Record<string, string>; value: [number, string] }[] = [];
      // Polls Prometheus' own API until its first scrapes land (startup and the 1 s interval are outside our control).
      while (Date.now() < deadline && result.length === 0) {
        await new Promise((r) => setTimeout(r, 500));
        try {
          const r = await fetch(`http://127.0.0.1:${promPort}/api/v1/query?query=${query}`);
          if (r.ok) result = ((await r.json()) as { data: { result: typeof result } }).data.result;
        } catch {
          // not listening yet
        }
      }
      expect(result).toHaveLength(1);
      expect(result[0]!.metric).toMatchObject({ job: 'svc', name: vm.name, type: 'vm', node: vm.node, cluster: 'hv1' });
      expect(Number(result[0]!.value[1])).toBe(vm.memory.usage);
      const up = (await (await fetch(`http://127.0.0.1:${promPort}/api/v1/query?query=up{job="svc"}`)).json()) as {
        data: { result: { value: [number, string] }[] };
      };
      expect(up.data.result[0]!.value[1]).toBe('1');
    }, 60_000);
  });
});
