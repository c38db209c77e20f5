import { splitPath } from './route-match.js';
import { checkObject, checkValue, type Errors } from './schema-check.js';
import { type Endpoint, type PSchema, schemaFor } from './schemas.js';
import type { Kind } from './types.js';

/**
 * Where real responses knowingly differ from the official `returns` schema (reference README). The
 * simulator sends what the real servers send, and validation uses the schema with these patches.
 */
export const KNOWN_DEVIATIONS: Array<{ kind: Kind; path: string; field: string; why: string; patch: PSchema }> = [
  {
    kind: 'bak',
    path: '/admin/datastore/{store}/snapshots',
    field: 'items.files.items',
    why: 'schema says strings, but the Rust type is Vec<BackupContent>: objects {filename, size?, crypt-mode?}',
    patch: {
      type: 'object',
      additionalProperties: false,
      properties: {
        filename: { type: 'string' },
        size: { type: 'integer', optional: 1 },
        'crypt-mode': { type: 'string', enum: ['none', 'encrypt', 'sign-only'], optional: 1 },
      },
    },
  },
  {
    kind: 'mail',
    path: '/statistics/spamscores',
    field: 'items.level',
    why: 'schema says string, but PMG::API2::Statistics emits integers 0..10',
    patch: { type: 'integer', minimum: 0, maximum: 10 },
  },
];

const patched = new Map<string, PSchema>();

/** The `returns` schema of an endpoint, with the known deviations applied (cloned once, then cached). */
export function returnsSchema(kind: Kind, e: Endpoint, official = false): PSchema {
  if (official) return e.returns;
  const key = `${kind} ${e.method} ${e.path}`;
  const hit = patched.get(key);
  if (hit) return hit;
  const s = structuredClone(e.returns);
  for (const d of KNOWN_DEVIATIONS) {
    if (d.kind !== kind || d.path !== e.path) continue;
    setAt(s, d.field.split('.'), d.patch);
  }
  patched.set(key, s);
  return s;
}

function setAt(s: PSchema, steps: string[], patch: PSchema): void {
  let cur: PSchema = s;
  for (let i = 0; i < steps.length - 1; i++) {
    const step = steps[i]!;
    cur = (step === 'items' ? cur.items : cur.properties?.[step]) as PSchema;
  }
  const last = steps[steps.length - 1]!;
  if (last === 'items') cur.items = patch;
  else if (cur.properties) cur.properties[last] = patch;
}

/** Strips the `/api2/json` prefix and the query string. */
export function relPath(path: string): string {
  const noQuery = path.split('?')[0] ?? '';
  return noQuery.startsWith('/api2/json') ? noQuery.slice('/api2/json'.length) || '/' : noQuery;
}

export function findEndpoint(kind: Kind, method: string, path: string): Endpoint | undefined {
  return schemaFor(kind).table.find(method.toUpperCase(), splitPath(relPath(path)))?.value;
}

/** Validates `data` (the envelope's content) against the endpoint's returns schema; [] when valid. */
export function validateReturns(
  kind: Kind,
  method: string,
  path: string,
  data: unknown,
  opts: { official?: boolean } = {},
): string[] {
  const e = findEndpoint(kind, method, path);
  if (!e) return [`no schema for ${method} ${relPath(path)}`];
  const errors: Errors = {};
  checkValue(returnsSchema(kind, e, opts.official), data, 'data', errors, {
    params: false,
    numericBooleans: kind !== 'bak',
  });
  return Object.entries(errors).map(([k, v]) => `${k}: ${v}`);
}

export type RequestParams = Record<string, string | string[] | number | boolean | undefined>;

export type RequestCheck =
  | { ok: true; endpoint: Endpoint }
  | { ok: false; status: 400; message: string; errors: Errors }
  | { ok: false; status: 501; message: string };

/**
 * Checks a request against the official `parameters` schema: path parameters are merged in like the
 * real servers do, unknown or ill-typed parameters give the 400 the real API would answer.
 */
export function validateRequest(kind: Kind, method: string, path: string, params: RequestParams = {}): RequestCheck {
  const m = method.toUpperCase();
  const rel = relPath(path);
  const hit = schemaFor(kind).table.find(m, splitPath(rel));
  if (!hit) return { ok: false, status: 501, message: `Method '${m} ${rel}' not implemented` };
  const merged: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined) continue;
    merged[k] = Array.isArray(v) ? v.map(String) : String(v);
  }
  Object.assign(merged, hit.params);
  const errors: Errors = {};
  checkObject(hit.value.parameters, merged, '', errors, { params: true, numericBooleans: true });
  if (Object.keys(errors).length > 0)
    return { ok: false, status: 400, message: 'Parameter verification failed.', errors };
  return { ok: true, endpoint: hit.value };
}
