import { FakeClock } from '@svc/platform';
import { createTestDatabase } from '@svc/platform/testing';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { type Db, migrateServerDatabase, openServerDatabase } from '../../platform/db/index.js';
import { createAlertsHarness, node, T0 } from './alerts.testing.js';

const drops: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const d of drops) await d();
});

async function openDb(dialect: 'sqlite' | 'postgres'): Promise<Db> {
  if (dialect === 'sqlite') {
    const db = openServerDatabase({ dataDir: ':memory:', databaseUrl: undefined });
    await migrateServerDatabase(db);
    drops.push(() => db.close());
    return db;
  }
  const pg = await createTestDatabase(inject('pgUrl'));
  const db = openServerDatabase({ dataDir: ':memory:', databaseUrl: pg.url });
  await migrateServerDatabase(db);
  drops.push(async () => {
    await db.close();
    await pg.drop();
  });
  return db;
}

const hot = { nodes: [node({ cpu: 0.85 })] };
const cool = { nodes: [node({ cpu: 0.1 })] };

describe.each(['sqlite', 'postgres'] as const)('alert persistence on %s', (dialect) => {
  it('an active alert survives a restart with its id and startTime, without a second firing notice', async () => {
    const db = await openDb(dialect);
    const clock = new FakeClock(T0);
    const a = await createAlertsHarness({ db, clock });
    await a.area.service.activate(a.actor);
    await a.poll(hot);
    await a.tick(6000);
    await a.area.service.act('acknowledge', a.actor, 'lab-pve1-cpu');
    const before = (await a.active())[0];
    a.area.stop();

    const b = await createAlertsHarness({ db, clock });
    expect(await b.active()).toEqual([before]);
    await b.poll(hot);
    await b.tick(10 * 60_000);
    expect(b.events()).toEqual([]);
    await b.poll(cool);
    expect(b.events()).toEqual(['resolved lab-pve1-cpu']);
    const history = await b.area.service.history({ limit: 10, offset: 0, severity: 'all' });
    expect(history.map((h) => [h.id, h.startTime, h.resolvedTime !== undefined])).toEqual([
      ['lab-pve1-cpu', new Date(T0).toISOString(), true],
    ]);
    const incidents = await b.area.service.incidents({ resource_id: 'lab-pve1', limit: 10 });
    expect(incidents).toMatchObject([{ alertIdentifier: 'lab-pve1-cpu', status: 'resolved', acknowledged: true }]);
  });

  it('a notice not yet handed over when svc stops is delivered after the restart, with the same event id', async () => {
    const db = await openDb(dialect);
    const clock = new FakeClock(T0);
    const broken = { deliver: async () => Promise.reject(new Error('notification side down')) };
    const a = await createAlertsHarness({ db, clock, sink: broken });
    await a.area.service.activate(a.actor);
    await a.poll(hot);
    await a.tick(6000);
    await a.poll(cool);
    a.area.stop();

    const b = await createAlertsHarness({ db, clock });
    await b.tick(10_000);
    expect(b.events()).toEqual(['firing lab-pve1-cpu', 'resolved lab-pve1-cpu']);
    const [firing, resolved] = b.sink.notices;
    expect(firing?.eventId).toMatch(/^lab-pve1-cpu:firing:\d+$/);
    expect(resolved?.eventId).toMatch(/^lab-pve1-cpu:resolved:\d+$/);
    await b.tick(10_000);
    expect(b.sink.notices).toHaveLength(2);
  });

  it('the configuration is stored and read back', async () => {
    const db = await openDb(dialect);
    const a = await createAlertsHarness({ db });
    await a.area.service.updateConfig(a.actor, { flappingThreshold: 7, schedule: { cooldown: 11 } });
    const b = await createAlertsHarness({ db });
    expect(b.area.config()).toMatchObject({ flappingThreshold: 7, schedule: { cooldown: 11, maxAlertsHour: 10 } });
  });
});
