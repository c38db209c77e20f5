import { mkdtempSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TestTelemetry } from '../src/testing/app.js';
import { runInstaller, type Seen, startRedirector, startService, toolPath } from './client.harness.js';

let t: TestTelemetry;
let url: string;
let seen: Seen[];
let redirector: { url: string; server: Server; hits: string[] };
let n = 0;
let id: string;

const lxcEnv = () => ({
  TELEMETRY_URL: url,
  DIAGNOSTICS: 'yes',
  RANDOM_UUID: id,
  CT_TYPE: '1',
  DISK_SIZE: '8',
  CORE_COUNT: '2',
  RAM_SIZE: '2048',
  var_os: 'debian',
  var_version: '12',
  DISABLEIP6: 'no',
  NSAPP: 'pihole',
  METHOD: 'default',
});

const record = async (rid = id) =>
  (await t.app.inject({ method: 'GET', url: '/api/records?limit=100' }))
    .json()
    .records.find((r: { random_id: string }) => r.random_id === rid);

function expectContinued(r: { code: number | null; stdout: string; stderr: string }) {
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  expect(r.stdout).toContain('installer-continued');
}

beforeAll(async () => {
  ({ t, url, seen } = await startService());
  redirector = await startRedirector(url);
});
afterAll(async () => {
  redirector.server.close();
  await t.close();
});
beforeEach(() => {
  n += 1;
  id = `6f1c2d3e-4a5b-4c6d-8e9f-${n.toString(16).padStart(12, '0')}`;
  seen.length = 0;
});

describe('telemetry.func against the real service on loopback', () => {
  it('post_to_api sends the container report with typed numbers and the hypervisor version', async () => {
    const r = await runInstaller(
      'post_to_api',
      lxcEnv(),
      toolPath({ pveversion: 'pve-manager/8.3.2/3e76eec2 (running kernel: 6.8.12-5-pve)' }),
    );
    expectContinued(r);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ method: 'POST', url: '/upload', status: 201 });
    expect(seen[0]!.body).toEqual({
      ct_type: 1,
      type: 'lxc',
      disk_size: 8,
      core_count: 2,
      ram_size: 2048,
      os_type: 'debian',
      os_version: '12',
      disableip6: 'no',
      nsapp: 'pihole',
      method: 'default',
      hv_version: '8.3.2',
      status: 'installing',
      random_id: id,
    });
  });

  it('without pveversion the version is "not found" (stored as empty)', async () => {
    expectContinued(await runInstaller('post_to_api', lxcEnv()));
    expect((seen[0]!.body as { hv_version: string }).hv_version).toBe('not found');
    expect((await record()).hv_version).toBe('');
  });

  it('rule 1: nothing is sent when curl is not on PATH', async () => {
    const r = await runInstaller(
      'post_to_api; post_to_api_vm; post_update_to_api failed boom',
      lxcEnv(),
      toolPath({ curl: false }),
    );
    expectContinued(r);
    expect(seen).toHaveLength(0);
  });

  it('rule 2: DIAGNOSTICS=no sends nothing at all', async () => {
    const r = await runInstaller('post_to_api; post_update_to_api failed boom', { ...lxcEnv(), DIAGNOSTICS: 'no' });
    expectContinued(r);
    expect(seen).toHaveLength(0);
  });

  it('rule 2: a report needs DIAGNOSTICS=yes exactly (unset, empty, Yes, maybe send nothing)', async () => {
    for (const value of [undefined, '', 'Yes', 'maybe']) {
      const env: Record<string, string> = lxcEnv();
      if (value === undefined) delete env.DIAGNOSTICS;
      else env.DIAGNOSTICS = value;
      expectContinued(await runInstaller('post_to_api', env));
    }
    expect(seen).toHaveLength(0);
  });

  it('rule 2: a status update is only blocked by DIAGNOSTICS=no (unset still sends, per the spec)', async () => {
    const env: Record<string, string> = lxcEnv();
    delete env.DIAGNOSTICS;
    expectContinued(await runInstaller('post_update_to_api done none', env));
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ url: '/upload/updatestatus', status: 404 });
  });

  it('rule 3: an empty random id sends neither report nor update', async () => {
    const r = await runInstaller('post_to_api; post_update_to_api failed boom', { ...lxcEnv(), RANDOM_UUID: '' });
    expectContinued(r);
    expect(seen).toHaveLength(0);
  });

  it('rule 4: post_to_api_vm sends nothing when the settings file is absent', async () => {
    const env = { ...lxcEnv(), TELEMETRY_DIAGNOSTICS_FILE: '/nonexistent/diagnostics' };
    expectContinued(await runInstaller('post_to_api_vm', env));
    expect(seen).toHaveLength(0);
  });

  it('rule 4: post_to_api_vm reads the opt-in from the file; VM fields: ct_type 2, G stripped, empty disableip6', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'diag-'));
    const file = join(dir, 'diagnostics');
    writeFileSync(file, 'diagnostics=yes\r\n\n# comment DIAGNOSTICS=no\n');
    const env = {
      ...lxcEnv(),
      DIAGNOSTICS: 'no',
      TELEMETRY_DIAGNOSTICS_FILE: file,
      DISK_SIZE: '32.5G',
      NSAPP: 'docker-vm',
    };
    expectContinued(await runInstaller('post_to_api_vm; post_update_to_api done none', env));
    expect(seen.map((s) => [s.url, s.status])).toEqual([
      ['/upload', 201],
      ['/upload/updatestatus', 200],
    ]);
    expect(seen[0]!.body).toMatchObject({
      ct_type: 2,
      type: 'vm',
      disk_size: 32.5,
      disableip6: '',
      nsapp: 'docker-vm',
    });
    expect(await record()).toMatchObject({ type: 'vm', ct_type: 2, disk_size: 32.5, status: 'done' });
    writeFileSync(file, 'DIAGNOSTICS=no\n');
    seen.length = 0;
    expectContinued(await runInstaller('post_to_api_vm', { ...env, DIAGNOSTICS: 'yes' }));
    expect(seen).toHaveLength(0);
  });

  it.each(['301', '302'])('rule 5: a %s redirect keeps the POST method and body', async (code) => {
    const env = { ...lxcEnv(), TELEMETRY_URL: `${redirector.url}/r${code}` };
    expectContinued(await runInstaller('post_to_api; post_update_to_api failed "it broke"', env));
    expect(redirector.hits).toContain(`POST /r${code}/upload`);
    expect(seen.map((s) => [s.method, s.url, s.status])).toEqual([
      ['POST', '/upload', 201],
      ['POST', '/upload/updatestatus', 200],
    ]);
    expect(await record()).toMatchObject({ nsapp: 'pihole', status: 'failed', error: 'it broke' });
  });

  it('rule 6: with the server down the installer continues under set -Eeuo pipefail and an ERR trap', async () => {
    const env = { ...lxcEnv(), TELEMETRY_URL: 'http://127.0.0.1:9', TELEMETRY_TIMEOUT: '3' };
    const started = Date.now();
    const r = await runInstaller('post_to_api; post_to_api_vm; post_update_to_api failed boom', env);
    expectContinued(r);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('rule 6: an error answer from the server (400) does not abort the installer either', async () => {
    const r = await runInstaller('post_update_to_api failed x', { ...lxcEnv(), RANDOM_UUID: 'not-a-uuid' });
    expectContinued(r);
    expect(seen[0]!.status).toBe(400);
  });

  it('rule 7: the second status update of a process sends nothing, even after re-sourcing', async () => {
    const script = `post_to_api
post_update_to_api failed "first"
post_update_to_api done none
source "$TELEMETRY_FUNC"
post_update_to_api failed "third"`;
    const env = { ...lxcEnv(), TELEMETRY_FUNC: new URL('../client/telemetry.func', import.meta.url).pathname };
    expectContinued(await runInstaller(script, env));
    expect(seen.filter((s) => s.url === '/upload/updatestatus')).toHaveLength(1);
    expect(await record()).toMatchObject({ status: 'failed', error: 'first' });
  });

  it('hostile text arrives intact: quotes, backslashes, newlines, control characters, unicode', async () => {
    const nsapp = 'my "app"\n\\ünï 🚀';
    const error = `lxc-attach -n 101 -- bash -c "apt-get install -y 'x'" failed\n\tat line 42: \\ $HOME \`id\` \x01 名前 ✓`;
    const env = { ...lxcEnv(), NSAPP: nsapp, var_version: '24.04 "noble"', TELEMETRY_ERROR: error };
    expectContinued(await runInstaller('post_to_api; post_update_to_api failed "$TELEMETRY_ERROR"', env));
    expect(seen.map((s) => s.status)).toEqual([201, 200]);
    expect(await record()).toMatchObject({ nsapp, os_version: '24.04 "noble"', status: 'failed', error });
  });

  it('bytes that are not UTF-8 and empty or non-numeric numbers still give valid JSON', async () => {
    const env = { ...lxcEnv(), CORE_COUNT: 'two', RAM_SIZE: '', DISK_SIZE: '08', NSAPP: 'bad\udcffname' };
    const r = await runInstaller(`NSAPP=$'bad\\xffname'; post_to_api; post_update_to_api failed $'oops\\xc3'`, env);
    expectContinued(r);
    expect(seen.map((s) => s.status)).toEqual([201, 200]);
    expect(await record()).toMatchObject({
      nsapp: 'bad\ufffdname',
      core_count: null,
      ram_size: null,
      disk_size: 8,
      error: 'oops\ufffd',
    });
  });
});
