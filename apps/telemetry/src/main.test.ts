import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMemoryLogger } from '@svc/platform';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from './config/index.js';
import { type RunningTelemetry, startTelemetry } from './main.js';
import { report, uuid } from './testing/dialects.js';

/** The real composition on a file database: writes go through the journal writer, over HTTP. */
describe('svc-telemetry on a SQLite file', () => {
  let dir: string;
  let running: RunningTelemetry | undefined;

  const start = async () => {
    const config = loadConfig({
      SVC_TELEMETRY_DATA_DIR: dir,
      SVC_TELEMETRY_PORT: '0',
      SVC_TELEMETRY_HOST: '127.0.0.1',
      SVC_TELEMETRY_RATE_LIMIT: '0',
      LOG_LEVEL: 'warn',
    });
    running = await startTelemetry(config, { log: createMemoryLogger('warn').logger });
    return running.url;
  };
  const post = (url: string, path: string, body: unknown) =>
    fetch(`${url}${path}`, { method: 'POST', body: JSON.stringify(body) }).then(async (r) => ({
      status: r.status,
      body: (await r.json()) as Record<string, unknown>,
    }));

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'telemetry-main-'));
  });
  afterEach(async () => {
    await running?.close();
    running = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers 201, 200, 409 and 404; concurrent reports stored once; statistics include every answered write', async () => {
    const url = await start();
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) => post(url, '/upload', report(i % 100, { nsapp: `app-${i % 3}` }))),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(100);
    expect(answers.filter((a) => a.status === 200)).toHaveLength(100);
    expect((await post(url, '/upload/updatestatus', { random_id: uuid(1), status: 'done' })).status).toBe(200);
    expect((await post(url, '/upload/updatestatus', { random_id: uuid(1), status: 'failed' })).status).toBe(409);
    expect((await post(url, '/upload/updatestatus', { random_id: uuid(999), status: 'done' })).status).toBe(404);
    const summary = await fetch(`${url}/api/stats/summary`).then((r) => r.json());
    expect(summary).toMatchObject({ total: 100, success: 1, inProgress: 99, orphanUpdates: 1 });
  });

  it('an answered write survives a restart', async () => {
    let url = await start();
    expect((await post(url, '/upload', report(7))).status).toBe(201);
    await running!.close();
    url = await start();
    expect((await post(url, '/upload', report(7))).status).toBe(200);
    const summary = await fetch(`${url}/api/stats/summary`).then((r) => r.json());
    expect(summary).toMatchObject({ total: 1, inProgress: 1 });
  });
});
