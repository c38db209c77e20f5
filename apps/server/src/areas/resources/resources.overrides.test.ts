import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Scope } from '@svc/contract';
import { createTestDatabase } from '@svc/platform/testing';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { loadConfig } from '../../config/index.js';
import { type Db, migrateServerDatabase, openServerDatabase } from '../../platform/db/index.js';
import type { Principal } from '../../platform/http/principal.js';
import { LiveState } from '../../state/index.js';
import { createTestApp, type TestApp } from '../../testing/app.js';
import { syntheticEstate } from '../../testing/estate.js';

const AT = Date.UTC(2026, 10, 22, 12, 0, 0);

function tokenWith(scopes: Scope[]): () => Promise<Principal> {
  return async () => ({ kind: 'token', username: 'operator', isAdmin: false, scopes, orgId: 'default' });
}

/** Two hv instances with a machine called node0 each (one source, so no rule merges them), plus guests. */
function state(): LiveState {
  const s = new LiveState({ clock: { now: () => AT } });
  s.applyPoll('hv1', syntheticEstate('hv1', 60, AT));
  const other = syntheticEstate('hv2', 10, AT);
  other.nodes[0]!.node = 'node0.lab.example';
  s.applyPoll('hv2', other);
  return s;
}

describe.each(['sqlite', 'postgres'] as const)('link, unlink and report-merge on %s', (dialect) => {
  const apps: TestApp[] = [];
  let drop = async () => {};
  let fileDb: Db | undefined;
  afterAll(async () => {
    for (const a of apps) await a.close();
    await fileDb?.close();
    await drop();
  });

  /** A fresh app (as after a restart) on the same database and data directory. */
  let shared: { databaseUrl?: string; dataDir: string } | undefined;
  async function start(): Promise<TestApp> {
    if (!shared) {
      const dataDir = mkdtempSync(join(tmpdir(), 'svc-res-'));
      if (dialect === 'postgres') {
        const pg = await createTestDatabase(inject('pgUrl'));
        drop = pg.drop;
        shared = { databaseUrl: pg.url, dataDir };
      } else {
        shared = { dataDir };
        fileDb = openServerDatabase(loadConfig({ SVC_DATA_DIR: dataDir }));
        await migrateServerDatabase(fileDb);
      }
    }
    const t = await createTestApp({
      ...shared,
      overrides: {
        state: state(),
        authenticate: tokenWith(['monitoring:read', 'monitoring:write', 'settings:read']),
        hasFeature: () => true,
        ...(fileDb ? { db: fileDb } : {}),
      },
    });
    apps.push(t);
    return t;
  }
  const call = async (t: TestApp, method: 'GET' | 'POST', url: string, payload?: object) => {
    const res = await t.app.inject({ method, url, payload });
    return { status: res.statusCode, body: res.json() };
  };
  const hosts = async (t: TestApp) =>
    (await call(t, 'GET', '/api/resources?type=host&limit=100&q=node0')).body.data as {
      id: string;
      members: string[];
      sources: string[];
    }[];

  it('link joins, unlink and report-merge split; every decision persists across a restart', async () => {
    let t = await start();
    const apart = await hosts(t);
    expect(apart.map((h) => h.members)).toEqual([['hv:hv1/node/node0'], ['hv:hv2/node/node0.lab.example']]);
    const [a, b] = apart.map((h) => h.id) as [string, string];

    const linked = await call(t, 'POST', `/api/resources/${a}/link`, { targetId: b, reason: 'same box' });
    expect(linked.status).toBe(200);
    expect(linked.body.resource.members).toEqual(['hv:hv1/node/node0', 'hv:hv2/node/node0.lab.example']);
    expect(linked.body.overrides).toEqual([
      { kind: 'link', a: 'hv:hv1/node/node0', b: 'hv:hv2/node/node0.lab.example', reason: 'same box' },
    ]);
    expect((await call(t, 'POST', `/api/resources/${a}/link`, { targetId: b })).status).toBe(409);
    expect((await call(t, 'POST', `/api/resources/${a}/link`, { targetId: 'host-0000000000000000' })).status).toBe(404);
    expect((await call(t, 'POST', `/api/resources/${a}/link`, {})).status).toBe(400);

    // Restart: the link still holds, and the merged resource keeps the first member's id.
    t = await start();
    expect((await hosts(t)).map((h) => h.id)).toEqual([a]);
    const stats = (await call(t, 'GET', '/api/resources/stats')).body;
    expect(stats.overrides).toEqual({ links: 1, exclusions: 0 });
    expect(stats.merged).toBe(1);

    // Unlink by the id the member had on its own.
    const unlinked = await call(t, 'POST', `/api/resources/${a}/unlink`, { targetId: b });
    expect(unlinked.status).toBe(200);
    expect(unlinked.body.overrides.map((o: { kind: string }) => o.kind)).toEqual(['exclude']);
    expect((await call(t, 'POST', `/api/resources/${a}/unlink`, { targetId: 'nope' })).status).toBe(409);
    t = await start();
    expect((await hosts(t)).map((h) => h.id)).toEqual([a, b]);

    // Link again, then report the merge as wrong: split again and kept split.
    expect((await call(t, 'POST', `/api/resources/${b}/link`, { targetId: a })).status).toBe(200);
    expect((await hosts(t)).map((h) => h.id)).toEqual([a]);
    const bad = await call(t, 'POST', `/api/resources/${a}/report-merge`, { sources: ['agent'] });
    expect(bad.status).toBe(400);
    expect(bad.body.details.issues[0].field).toBe('sources');
    const split = await call(t, 'POST', `/api/resources/${a}/report-merge`, {
      sources: ['hv:hv2/node/node0.lab.example'],
      notes: 'different machines',
    });
    expect(split.status).toBe(200);
    expect(split.body.resource.members).toEqual(['hv:hv1/node/node0']);
    expect(split.body.overrides).toEqual([
      { kind: 'exclude', a: 'hv:hv1/node/node0', b: 'hv:hv2/node/node0.lab.example', reason: 'different machines' },
    ]);
    expect((await call(t, 'POST', `/api/resources/${a}/report-merge`, { sources: ['hv'] })).status).toBe(409);
    t = await start();
    expect((await hosts(t)).map((h) => h.id)).toEqual([a, b]);

    const audit = await (fileDb ?? t.db).db
      .selectFrom('audit_events')
      .select('event')
      .where('event', 'like', 'resource_%')
      .execute();
    expect(audit.map((e) => e.event).sort()).toEqual([
      'resource_linked',
      'resource_linked',
      'resource_merge_reported',
      'resource_unlinked',
    ]);
  });
});
