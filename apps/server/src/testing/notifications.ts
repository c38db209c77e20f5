import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMemoryLogger, FakeClock } from '@svc/platform';
import { createTestDatabase } from '@svc/platform/testing';
import type { AreaDeps } from '../areas/area.js';
import { createAuditArea } from '../areas/audit/index.js';
import { createNotificationsArea, type DeliveryPolicy, type Notice } from '../areas/notifications/index.js';
import { loadConfig } from '../config/index.js';
import { buildInfo } from '../platform/build-info.js';
import { createSecretBox } from '../platform/crypto/index.js';
import { type Db, migrateServerDatabase, openServerDatabase } from '../platform/db/index.js';
import { FakeTimers, settle } from '../platform/jobs/index.js';

/** When test alerts start: 2026-11-22 11:00 UTC; they were last seen an hour later. */
export const NOTICE_START = Date.UTC(2026, 10, 22, 11);

/** A CPU alert notice on VM `vm-<i>` (alert id `a<i>`, event id `a<i>:<event>`) for pipeline tests. */
export function sampleNotice(
  i: number,
  event: Notice['event'] = 'firing',
  extra: Partial<Notice> = {},
  start = NOTICE_START,
): Notice {
  return {
    eventId: `a${i}:${event}`,
    event,
    at: Date.UTC(2026, 10, 22, 12),
    alert: {
      id: `a${i}`,
      type: 'cpu',
      level: 'warning',
      resourceId: `r${i}`,
      resourceName: `vm-${i}`,
      node: 'node1',
      instance: 'hv1',
      message: `cpu high ${i}`,
      value: 91,
      threshold: 90,
      startTime: start,
      lastSeen: Date.UTC(2026, 10, 22, 12),
      acknowledged: false,
    },
    ...extra,
  };
}

export interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export type Responder = (
  req: Received,
  n: number,
) => { status: number; headers?: Record<string, string>; body?: string };

/** An HTTP receiver on 127.0.0.1 that records every request and answers as the test says. */
export async function startReceiver(respond: Responder = () => ({ status: 204 }), opts: { delayMs?: number } = {}) {
  const received: Received[] = [];
  let responder = respond;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      received.push(r);
      const out = responder(r, received.length);
      const answer = () => {
        res.writeHead(out.status, out.headers);
        res.end(out.body ?? '');
      };
      // A slow receiver, so a burst is still in flight when a test kills the sender.
      if (opts.delayMs) setTimeout(answer, opts.delayMs);
      else answer();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    received,
    respond(fn: Responder) {
      responder = fn;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** Waits until `cond` holds, yielding to I/O between checks (outcomes of real sockets, not timing logic). */
export async function until(cond: () => boolean | Promise<boolean>, what = 'condition', tries = 2000): Promise<void> {
  for (let i = 0; i < tries; i++) {
    if (await cond()) return;
    await settle(2);
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/**
 * A migrated database for a test on either dialect: in-memory SQLite, or a throwaway database on the test
 * PostgreSQL server (`inject('pgUrl')`). `close` also drops the PostgreSQL database.
 */
export async function openDialectDb(
  dialect: 'sqlite' | 'postgres',
  pgServerUrl: string,
): Promise<{ db: Db; close(): Promise<void> }> {
  const pg = dialect === 'postgres' ? await createTestDatabase(pgServerUrl) : undefined;
  const db = openServerDatabase({ dataDir: ':memory:', databaseUrl: pg?.url });
  await migrateServerDatabase(db);
  return {
    db,
    async close() {
      await db.close();
      await pg?.drop();
    },
  };
}

/** The notifications area on a migrated in-memory database with a fake clock and fake timers. */
export async function createNotificationsHarness(
  opts: { policy?: Partial<DeliveryPolicy>; env?: Record<string, string>; db?: Db; secretKey?: Buffer } = {},
) {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-notify-'));
  const config = loadConfig({ SVC_DATA_DIR: dataDir, SVC_WEBHOOK_ALLOW_CIDRS: '127.0.0.1/32', ...opts.env });
  const db = opts.db ?? openServerDatabase({ ...config, dataDir: ':memory:' });
  if (!opts.db) await migrateServerDatabase(db);
  const secretKey = opts.secretKey ?? randomBytes(32);
  const clock = new FakeClock(Date.UTC(2026, 10, 22, 12, 0, 0));
  const timers = new FakeTimers(clock);
  const { logger, lines } = createMemoryLogger('debug');
  const deps = {
    config,
    db,
    log: logger,
    clock,
    build: buildInfo(),
    secrets: createSecretBox(secretKey),
    openapi: () => ({}),
    licensePublicKey: '',
  } as unknown as AreaDeps;
  const audit = createAuditArea(deps);
  const area = createNotificationsArea(deps, audit, { timers, policy: opts.policy });
  await area.start();
  return {
    area,
    db,
    clock,
    timers,
    logLines: lines,
    secretKey,
    actor: { user: 'admin', ip: '127.0.0.1', path: '/test' },
    async close() {
      await area.stop();
      if (!opts.db) await db.close();
    },
  };
}
