import { z } from 'zod';
import { errorBody } from './common.js';
import type { RouteDef } from './route.js';

export interface OpenApiInfo {
  title: string;
  version: string;
  description: string;
}

const errorStatuses: Record<string, string> = {
  '400': 'Bad input: malformed JSON or a field that fails validation (`details` names each field).',
  '401': 'Missing or invalid credentials.',
  '402': 'The active licence lacks the feature this route needs.',
  '403': 'Credentials are valid but lack the scope or role this route needs.',
  '429': 'Too many requests; see `Retry-After`.',
  '500': 'Internal error; the response carries `X-Request-Id` for the logs.',
};

const mediaTypes = {
  html: 'text/html',
  text: 'text/plain',
  javascript: 'text/javascript',
  css: 'text/css',
  binary: 'application/octet-stream',
} as const;

function schemaOf(s: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  return z.toJSONSchema(s, { target: 'draft-2020-12', io, unrepresentable: 'any', reused: 'inline' }) as Record<
    string,
    unknown
  >;
}

function strip(schema: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _ignored, ...rest } = schema;
  return rest;
}

function parameters(route: RouteDef): unknown[] {
  const out: unknown[] = [];
  for (const [where, s] of [
    ['path', route.params],
    ['query', route.query],
  ] as const) {
    if (!s) continue;
    const json = schemaOf(s, 'input') as { properties?: Record<string, unknown>; required?: string[] };
    for (const [name, schema] of Object.entries(json.properties ?? {})) {
      out.push({ name, in: where, required: where === 'path' || (json.required ?? []).includes(name), schema });
    }
  }
  return out;
}

/** Builds the OpenAPI 3.1 document for a route table. Deterministic: the same table gives the same bytes. */
export function buildOpenApi(table: Record<string, RouteDef>, info: OpenApiInfo): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [id, route] of Object.entries(table)) {
    const responses: Record<string, unknown> = {};
    const status = String(route.status ?? (route.responseKind === 'empty' ? 204 : 200));
    const kind = route.responseKind ?? 'json';
    if (kind === 'empty') responses[status] = { description: 'Success, no content.' };
    else if (kind === 'upgrade')
      responses[String(route.status ?? 101)] = {
        description: 'Switching Protocols: the connection continues as a WebSocket (or socket.io transport).',
      };
    else if (kind === 'json')
      responses[status] = {
        description: 'Success.',
        content: { 'application/json': { schema: route.response ? strip(schemaOf(route.response, 'output')) : {} } },
      };
    else
      responses[status] = { description: 'Success.', content: { [mediaTypes[kind]]: { schema: { type: 'string' } } } };
    const errors = ['400', '500'];
    if (route.access !== 'public') errors.push('401', '403');
    if (route.feature) errors.push('402');
    if (route.rateLimit) errors.push('429');
    for (const code of errors.sort()) {
      responses[code] = {
        description: errorStatuses[code],
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      };
    }
    const op: Record<string, unknown> = {
      operationId: id,
      summary: route.summary,
      tags: [route.tag],
      parameters: parameters(route),
      responses,
      'x-svc-access': { access: route.access, scopes: route.scopes ?? [], feature: route.feature ?? null },
    };
    if (route.description) op.description = route.description;
    if (route.deprecated) op.deprecated = true;
    if (route.access !== 'public') op.security = [{ apiToken: [] }, { bearer: [] }, { session: [] }];
    if (route.body) {
      op.requestBody = {
        required: true,
        content: { 'application/json': { schema: strip(schemaOf(route.body, 'input')) } },
      };
    }
    const methods = paths[route.path] ?? {};
    methods[route.method.toLowerCase()] = op;
    paths[route.path] = methods;
  }
  return {
    openapi: '3.1.0',
    info,
    paths: Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b))),
    components: {
      schemas: { Error: strip(schemaOf(errorBody, 'output')) },
      securitySchemes: {
        apiToken: { type: 'apiKey', in: 'header', name: 'X-API-Token' },
        bearer: { type: 'http', scheme: 'bearer' },
        session: { type: 'apiKey', in: 'cookie', name: 'svc_session' },
      },
    },
  };
}

/** The monitoring API's OpenAPI document; the server serves exactly this, and the repo commits it. */
export function monitoringOpenApi(table: Record<string, RouteDef>, version: string): Record<string, unknown> {
  return buildOpenApi(table, {
    title: 'svc monitoring API',
    version,
    description:
      'REST API of svc, the infrastructure monitoring service. Authenticate with `X-API-Token`, `Authorization: Bearer`, or the `svc_session` cookie.',
  });
}
