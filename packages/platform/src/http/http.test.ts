import { defineRoute } from '@svc/contract';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AppError } from '../errors.js';
import { createMemoryLogger } from '../log.js';
import { bindRoutes } from './bind.js';
import { genRequestId, installErrorHandling } from './errors.js';

const table = {
  createThing: defineRoute({
    method: 'POST',
    path: '/api/things',
    summary: 'make a thing',
    tag: 'Test',
    access: 'public',
    body: z.object({
      name: z.string().min(1),
      size: z.number().int().positive(),
      tags: z.array(z.string()).optional(),
    }),
    response: z.object({ id: z.string(), name: z.string() }),
    status: 201,
  }),
  getThing: defineRoute({
    method: 'GET',
    path: '/api/things/{id}',
    summary: 'one thing',
    tag: 'Test',
    access: 'public',
    params: z.object({ id: z.string().regex(/^t\d+$/) }),
    query: z.object({ verbose: z.enum(['true', 'false']).optional() }),
    response: z.object({ id: z.string(), name: z.string() }),
  }),
  explode: defineRoute({
    method: 'GET',
    path: '/api/explode',
    summary: 'fails',
    tag: 'Test',
    access: 'public',
    response: z.object({}),
  }),
  refuse: defineRoute({
    method: 'GET',
    path: '/api/refuse',
    summary: 'refused by the gate',
    tag: 'Test',
    access: 'auth',
    response: z.object({}),
  }),
  drift: defineRoute({
    method: 'GET',
    path: '/api/drift',
    summary: 'answers outside its schema',
    tag: 'Test',
    access: 'public',
    response: z.object({ n: z.number() }),
  }),
};

describe('HTTP error model and route binding', () => {
  let app: FastifyInstance;
  const { logger, lines } = createMemoryLogger('debug');
  const created: unknown[] = [];

  beforeAll(async () => {
    app = Fastify({ loggerInstance: logger as FastifyBaseLogger, bodyLimit: 1024, genReqId: genRequestId });
    installErrorHandling(app, { routes: Object.values(table) });
    bindRoutes(app, {
      routes: table,
      validateResponses: true,
      gate: async (_req, _reply, route) => {
        if (route.access !== 'public') throw new AppError('unauthorized', 'Authentication required.');
        return null;
      },
      handlers: {
        createThing: (_ctx, { body }) => {
          created.push(body);
          return { id: 't1', name: body.name };
        },
        getThing: (_ctx, { params }) => ({ id: params.id, name: 'x' }),
        explode: () => {
          throw new Error('secret internal detail at /srv/db.ts:42');
        },
        refuse: () => ({}),
        drift: () => ({ n: 'not a number' }) as unknown as { n: number },
      },
    });
    await app.ready();
  });
  afterAll(() => app.close());

  it('accepts a valid body with the declared status', async () => {
    const res = await app.inject({ method: 'POST', url: '/api/things', payload: { name: 'a', size: 2 } });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ id: 't1', name: 'a' });
  });

  it('answers 404 not_found for an unknown path', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/nothing-here' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'not_found', message: 'There is no endpoint at GET /api/nothing-here.' });
  });

  it('answers 405 with Allow for a known path and the wrong method', async () => {
    const res = await app.inject({ method: 'DELETE', url: '/api/things/t1' });
    expect(res.statusCode).toBe(405);
    expect(res.json().error).toBe('method_not_allowed');
    expect(res.headers.allow).toBe('GET, HEAD');
  });

  it('answers 400 invalid_json for malformed JSON, and changes nothing', async () => {
    const before = created.length;
    const res = await app.inject({
      method: 'POST',
      url: '/api/things',
      headers: { 'content-type': 'application/json' },
      payload: '{"name": "a", ',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('invalid_json');
    expect(res.json().message).toMatch(/not valid JSON: .*position|JSON input/);
    expect(created.length).toBe(before);
  });

  it('answers 400 validation_failed naming each offending field', async () => {
    const before = created.length;
    const res = await app.inject({ method: 'POST', url: '/api/things', payload: { name: '', size: 1.5, tags: [3] } });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.error).toBe('validation_failed');
    const fields = body.details.issues.map((i: { field: string }) => i.field);
    expect(fields).toEqual(expect.arrayContaining(['name', 'size', 'tags.0']));
    expect(body.message).toContain('name');
    expect(created.length).toBe(before);
  });

  it('validates path parameters and query strings too', async () => {
    const bad = await app.inject({ method: 'GET', url: '/api/things/zzz' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details.issues[0]).toMatchObject({ location: 'params', field: 'id' });
    const badQuery = await app.inject({ method: 'GET', url: '/api/things/t1?verbose=maybe' });
    expect(badQuery.statusCode).toBe(400);
    expect(badQuery.json().details.issues[0]).toMatchObject({ location: 'query', field: 'verbose' });
  });

  it('refuses prototype-poisoning keys', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/things',
      headers: { 'content-type': 'application/json' },
      payload: '{"name":"a","size":1,"__proto__":{"admin":true}}',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('invalid_json');
  });

  it('answers 413 payload_too_large over the body limit', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/things',
      payload: { name: 'x'.repeat(2000), size: 1 },
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().error).toBe('payload_too_large');
  });

  it('answers 415 for a body that is not JSON', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/things',
      headers: { 'content-type': 'application/xml' },
      payload: '<a/>',
    });
    expect(res.statusCode).toBe(415);
    expect(res.json().error).toBe('unsupported_media_type');
  });

  it('hides internals of a thrown error, returns the request id and logs the details', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/explode', headers: { 'x-request-id': 'req-abc-123' } });
    expect(res.statusCode).toBe(500);
    expect(res.headers['x-request-id']).toBe('req-abc-123');
    const body = res.json();
    expect(body.error).toBe('internal');
    expect(res.body).not.toContain('secret internal detail');
    expect(res.body).not.toMatch(/at .*\.ts:\d+/);
    expect(body.message).toContain('req-abc-123');
    const logged = lines().find((l) => l.includes('secret internal detail'));
    expect(logged).toBeDefined();
    expect(logged).toContain('req-abc-123');
  });

  it('refuses through the gate before parsing input', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/refuse' });
    expect(res.statusCode).toBe(401);
    expect(res.json().error).toBe('unauthorized');
  });

  it('turns a response that breaks its contract into a 500 when validation is on', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/drift' });
    expect(res.statusCode).toBe(500);
  });
});
