import { request } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { IngestWriter, WriteCommand } from '../ingest/ingest.commands.js';
import { createTestTelemetry, type TestTelemetry } from '../testing/app.js';
import { report, uuid } from '../testing/dialects.js';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Record<string, unknown>;
}

/** One HTTP/1.1 request on 127.0.0.1; `chunked` sends the body without a Content-Length. */
function send(
  url: string,
  method: string,
  path: string,
  body?: string,
  opts: { headers?: Record<string, string>; chunked?: boolean } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}${path}`, { method, headers: opts.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text ? JSON.parse(text) : {} });
      });
    });
    req.on('error', reject);
    if (body !== undefined && opts.chunked) {
      req.write(body.slice(0, 100));
      req.end(body.slice(100));
    } else req.end(body);
  });
}

/** Holds every write until released: a request stays in flight for as long as a test needs. */
function heldWriter(): IngestWriter & { submitted: Promise<void>; release(): void } {
  let release!: () => void;
  let submitted!: () => void;
  const held = new Promise<void>((r) => {
    release = r;
  });
  const seen = new Promise<void>((r) => {
    submitted = r;
  });
  return {
    submitted: seen,
    release,
    submit<C extends WriteCommand>(_cmd: C) {
      submitted();
      return held.then(() => 'created') as never;
    },
    drained: () => held,
    visible: () => Promise.resolve(),
    close: () => held,
  };
}

describe('ingest routes on a listening server (node:http front door)', () => {
  let t: TestTelemetry;
  let url: string;
  const start = async (opts: Parameters<typeof createTestTelemetry>[0] = {}) => {
    t = await createTestTelemetry(opts);
    url = await t.app.listen({ port: 0, host: '127.0.0.1' });
  };
  afterEach(() => t.close());

  it('stores a report with request id, JSON answer and one log line without the client address', async () => {
    await start({ env: { SVC_TELEMETRY_RATE_LIMIT: '0' } });
    const res = await send(url, 'POST', '/upload?from=test', JSON.stringify(report(1)), {
      headers: { 'content-type': 'application/json', 'x-request-id': 'req-abc.1' },
    });
    expect(res.status).toBe(201);
    expect(res.headers['x-request-id']).toBe('req-abc.1');
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.body).toEqual({ message: 'Report stored.', random_id: uuid(1), status: 'installing' });
    const again = await send(url, 'POST', '/upload', JSON.stringify(report(1)));
    expect(again.status).toBe(200);
    expect(again.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const lines = t.logLines().filter((l) => l.includes('"msg":"request"'));
    expect(lines.map((l) => JSON.parse(l))).toEqual([
      expect.objectContaining({
        reqId: 'req-abc.1',
        method: 'POST',
        url: '/upload',
        status: 201,
        ms: expect.any(Number),
      }),
      expect.objectContaining({ method: 'POST', url: '/upload', status: 200 }),
    ]);
    expect(lines.join('\n')).not.toContain('127.0.0.1');
  });

  it('answers errors in the JSON error model: 400 naming the field, invalid_json, 404, 409', async () => {
    await start({ env: { SVC_TELEMETRY_RATE_LIMIT: '0' } });
    const invalid = await send(url, 'POST', '/upload', JSON.stringify(report(2, { type: 'docker' })));
    expect(invalid.status).toBe(400);
    expect(invalid.body).toMatchObject({ error: 'validation_failed', details: { issues: [{ field: 'type' }] } });
    expect(invalid.body.message).toBe('Invalid request body: type (must be lxc or vm).');
    const broken = await send(url, 'POST', '/upload', '{"a": 1,}', { headers: { 'content-type': 'application/json' } });
    expect(broken.status).toBe(400);
    expect(broken.body.error).toBe('invalid_json');
    expect(broken.body.message).toMatch(/position|column/);
    const orphan = await send(url, 'POST', '/upload/updatestatus', JSON.stringify({ random_id: uuid(3) }));
    expect(orphan.status).toBe(404);
    expect(orphan.headers['x-request-id']).toBeDefined();
    await send(url, 'POST', '/upload', JSON.stringify(report(4)));
    await send(url, 'POST', '/upload/updatestatus', JSON.stringify({ random_id: uuid(4), status: 'failed' }));
    const conflict = await send(
      url,
      'POST',
      '/upload/updatestatus',
      JSON.stringify({ random_id: uuid(4), status: 'done' }),
    );
    expect(conflict.status).toBe(409);
    expect(conflict.body).toMatchObject({ error: 'conflict', details: { current: 'failed', requested: 'done' } });
  });

  it('refuses bodies over 16 KiB with 413, whether announced by Content-Length or streamed', async () => {
    await start({ env: { SVC_TELEMETRY_RATE_LIMIT: '0' } });
    const big = JSON.stringify(report(5, { padding: 'x'.repeat(17 * 1024) }));
    const announced = await send(url, 'POST', '/upload', big, { headers: { 'content-type': 'application/json' } });
    expect(announced.status).toBe(413);
    expect(announced.body.error).toBe('payload_too_large');
    const streamed = await send(url, 'POST', '/upload', big, { chunked: true });
    expect(streamed.status).toBe(413);
    expect((await send(url, 'GET', '/api/stats/summary')).body.total).toBe(0);
  });

  it('counts requests per client address with the standard headers and answers 429 with Retry-After', async () => {
    await start({ env: { SVC_TELEMETRY_RATE_LIMIT: '2' } });
    t.clock.set(Date.UTC(2026, 10, 22, 12, 0, 10));
    const first = await send(url, 'POST', '/upload', '{');
    expect(first.status).toBe(400);
    expect(first.headers['ratelimit-remaining']).toBe('1');
    const second = await send(url, 'POST', '/upload', JSON.stringify(report(6)));
    expect(second.status).toBe(201);
    expect(second.headers).toMatchObject({
      'ratelimit-limit': '2',
      'ratelimit-remaining': '0',
      'ratelimit-reset': '50',
    });
    const refused = await send(url, 'POST', '/upload/updatestatus', JSON.stringify({ random_id: uuid(6) }));
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('50');
    expect(refused.body.error).toBe('rate_limited');
  });

  it('leaves every other route to Fastify: statistics, CORS, 405 on GET /upload', async () => {
    await start();
    const health = await send(url, 'GET', '/api/health');
    expect(health.status).toBe(200);
    expect(health.headers['access-control-allow-origin']).toBe('*');
    const wrong = await send(url, 'GET', '/upload');
    expect(wrong.status).toBe(405);
    expect(wrong.headers.allow).toBe('POST');
  });

  it('stopping lets an in-flight report finish, then closes its keep-alive connection', async () => {
    const writer = heldWriter();
    await start({ env: { SVC_TELEMETRY_RATE_LIMIT: '0' }, overrides: { writer } });
    const answer = send(url, 'POST', '/upload', JSON.stringify(report(7)), { headers: { connection: 'keep-alive' } });
    await writer.submitted;
    // Fastify calls server.close() after its preClose hooks: from then on the service is stopping.
    const server = t.app.server;
    const close = server.close.bind(server);
    const stopping = new Promise<void>((told) => {
      vi.spyOn(server, 'close').mockImplementation((cb) => {
        told();
        return close(cb);
      });
    });
    const closed = t.app.close();
    await stopping;
    writer.release();
    const res = await answer;
    expect(res.status).toBe(201);
    expect(res.headers.connection).toBe('close');
    await closed;
  });
});
