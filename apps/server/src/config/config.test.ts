import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '@svc/platform';
import { describe, expect, it } from 'vitest';
import { type ConfigProbe, loadConfig } from './index.js';

const probe: ConfigProbe = { cwd: '/srv/svc', exists: () => false, read: () => undefined };

describe('loadConfig', () => {
  it('has the documented defaults', () => {
    const c = loadConfig({}, probe);
    expect(c).toMatchObject({
      port: 7655,
      host: '0.0.0.0',
      dataDir: '/srv/svc/data',
      databaseUrl: undefined,
      logLevel: 'info',
      publicUrl: undefined,
      bodyLimitBytes: 1048576,
      deploymentType: 'binary',
      containerized: false,
    });
  });

  it('reads every variable', () => {
    const c = loadConfig(
      {
        SVC_PORT: '8080',
        SVC_HOST: '127.0.0.1',
        SVC_DATA_DIR: '/var/lib/svc',
        SVC_DATABASE_URL: 'postgres://svc:pw@db:5432/svc',
        LOG_LEVEL: 'DEBUG',
        SVC_PUBLIC_URL: 'https://svc.example.org',
      },
      probe,
    );
    expect(c).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      dataDir: '/var/lib/svc',
      databaseUrl: 'postgres://svc:pw@db:5432/svc',
      logLevel: 'debug',
      publicUrl: 'https://svc.example.org',
    });
  });

  it('detects systemd, containers and source checkouts', () => {
    expect(loadConfig({ INVOCATION_ID: 'abc' }, probe).deploymentType).toBe('systemd');
    expect(loadConfig({}, { ...probe, exists: (p) => p === '/.dockerenv' }).deploymentType).toBe('docker');
    expect(loadConfig({}, { ...probe, read: () => '0::/kubepods/pod1' }).containerized).toBe(true);
    expect(loadConfig({}, { ...probe, exists: (p) => p === '/srv/svc/.git' }).deploymentType).toBe('development');
  });

  const bad: [string, string, RegExp][] = [
    ['SVC_PORT', '70000', /SVC_PORT.*TCP port/],
    ['SVC_PORT', 'http', /SVC_PORT/],
    ['SVC_HOST', 'not a host!', /SVC_HOST/],
    ['SVC_DATABASE_URL', 'mysql://x', /SVC_DATABASE_URL.*postgres:\/\//],
    ['LOG_LEVEL', 'verbose', /LOG_LEVEL.*debug, info, warn, error/],
    ['SVC_PUBLIC_URL', 'ftp://x', /SVC_PUBLIC_URL.*http/],
    ['SVC_BODY_LIMIT_BYTES', '-5', /SVC_BODY_LIMIT_BYTES/],
    ['SVC_DEV_MODE_SSH', 'perhaps', /SVC_DEV_MODE_SSH/],
  ];
  it.each(bad)('refuses %s=%s naming the variable', (name, value, message) => {
    expect(() => loadConfig({ [name]: value }, probe)).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value }, probe)).toThrow(message);
  });
});

describe('start-up with a bad variable', () => {
  // The built binary (npm test builds first): what operators run, and far quicker to start than tsx.
  const cli = new URL('../../dist/cli.js', import.meta.url).pathname;
  const cases: [string, string][] = [
    ['SVC_PORT', 'abc'],
    ['SVC_HOST', 'bad host'],
    ['SVC_DATABASE_URL', 'sqlite://x'],
    ['LOG_LEVEL', 'loud'],
    ['SVC_PUBLIC_URL', 'nope'],
    ['SVC_BODY_LIMIT_BYTES', '1MB'],
  ];
  it.each(cases)('%s=%s stops the process with exit code 2 and names it', (name, value) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-cfg-'));
    const r = spawnSync(process.execPath, [cli, 'serve'], {
      env: { PATH: process.env.PATH, SVC_DATA_DIR: dataDir, SVC_PORT: '0', SVC_HOST: '127.0.0.1', [name]: value },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(name);
    expect(r.stderr).toContain('accepts');
  });
});
