import { ConfigError } from '@svc/platform';
import { describe, expect, it } from 'vitest';
import { configVariables, loadConfig } from './index.js';

describe('loadConfig', () => {
  it('has the documented defaults', () => {
    expect(loadConfig({}, '/srv')).toEqual({
      port: 7656,
      host: '0.0.0.0',
      dataDir: '/srv/data',
      databaseUrl: undefined,
      logLevel: 'info',
      rateLimitPerMinute: 60,
      trustProxy: false,
      staleAfterHours: 24,
      retentionDays: 365,
      reaperIntervalSeconds: 600,
      durableWrites: true,
    });
    expect(configVariables.map(([name]) => name)).toContain('SVC_TELEMETRY_DATABASE_URL');
  });

  it('reads every variable', () => {
    const c = loadConfig(
      {
        SVC_TELEMETRY_PORT: '8000',
        SVC_TELEMETRY_HOST: '127.0.0.1',
        SVC_TELEMETRY_DATA_DIR: '/var/lib/t',
        SVC_TELEMETRY_DATABASE_URL: 'postgres://u:p@db:5432/t',
        SVC_TELEMETRY_RATE_LIMIT: '0',
        SVC_TELEMETRY_TRUST_PROXY: 'yes',
        SVC_TELEMETRY_STALE_HOURS: '2',
        SVC_TELEMETRY_RETENTION_DAYS: '0',
        SVC_TELEMETRY_REAPER_INTERVAL: '30',
        SVC_TELEMETRY_DURABLE_WRITES: 'false',
        LOG_LEVEL: 'debug',
      },
      '/srv',
    );
    expect(c).toMatchObject({
      port: 8000,
      host: '127.0.0.1',
      dataDir: '/var/lib/t',
      databaseUrl: 'postgres://u:p@db:5432/t',
      rateLimitPerMinute: 0,
      trustProxy: true,
      staleAfterHours: 2,
      retentionDays: 0,
      reaperIntervalSeconds: 30,
      durableWrites: false,
      logLevel: 'debug',
    });
  });

  it.each([
    ['SVC_TELEMETRY_PORT', '70000'],
    ['SVC_TELEMETRY_DATABASE_URL', 'mysql://x'],
    ['SVC_TELEMETRY_RATE_LIMIT', '-1'],
    ['SVC_TELEMETRY_STALE_HOURS', '0'],
    ['SVC_TELEMETRY_TRUST_PROXY', 'maybe'],
  ])('refuses %s=%s with a ConfigError naming it', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(name);
  });
});
