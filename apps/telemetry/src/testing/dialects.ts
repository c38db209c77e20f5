import { createTestDatabase } from '@svc/platform/testing';
import { inject } from 'vitest';
import { createTestTelemetry, type TestTelemetry } from './app.js';

export const dialects = ['sqlite', 'postgres'] as const;
export type Dialect = (typeof dialects)[number];

/** A fresh service on in-memory SQLite, or on a fresh database of the run's throwaway PostgreSQL. */
export async function telemetryOn(
  dialect: Dialect,
  opts: Parameters<typeof createTestTelemetry>[0] = {},
): Promise<TestTelemetry> {
  if (dialect === 'sqlite') return createTestTelemetry(opts);
  const pg = await createTestDatabase(inject('pgUrl'));
  const t = await createTestTelemetry({ ...opts, databaseUrl: pg.url });
  return {
    ...t,
    async close() {
      await t.close();
      await pg.drop();
    },
  };
}

export const uuid = (n: number) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

export function report(n: number, extra: Record<string, unknown> = {}) {
  return {
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
    random_id: uuid(n),
    ...extra,
  };
}
