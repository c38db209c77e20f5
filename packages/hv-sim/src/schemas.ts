import { readFileSync } from 'node:fs';
import { RouteTable } from './route-match.js';
import type { Kind } from './types.js';

/** A node of Proxmox's JSON-schema dialect (see schemas/ and the reference README). */
export interface PSchema {
  type?: string;
  optional?: number | boolean;
  properties?: Record<string, PSchema>;
  additionalProperties?: number | boolean | PSchema;
  items?: PSchema;
  enum?: Array<string | number>;
  minimum?: number | string;
  maximum?: number | string;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string | Record<string, unknown>;
  requires?: string;
  default?: unknown;
  [k: string]: unknown;
}

export interface Endpoint {
  path: string;
  method: string;
  name: string;
  allowtoken?: number;
  parameters: PSchema;
  returns: PSchema;
  extra?: boolean;
}

const FILES: Record<Kind, string> = { hv: 'pve-schema.json', bak: 'pbs-schema.json', mail: 'pmg-schema.json' };

const cache = new Map<Kind, { endpoints: Endpoint[]; table: RouteTable<Endpoint> }>();

/** The official endpoint list of one product, loaded once from the copies in ../schemas. */
export function schemaFor(kind: Kind): { endpoints: Endpoint[]; table: RouteTable<Endpoint> } {
  const hit = cache.get(kind);
  if (hit) return hit;
  const url = new URL(`../schemas/${FILES[kind]}`, import.meta.url);
  const doc = JSON.parse(readFileSync(url, 'utf8')) as { endpoints: Endpoint[] };
  const table = new RouteTable<Endpoint>();
  for (const e of doc.endpoints) table.add(e.method, e.path, e);
  const entry = { endpoints: doc.endpoints, table };
  cache.set(kind, entry);
  return entry;
}
