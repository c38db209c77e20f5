import type { Auth } from './sim.auth.js';
import type { GuestRec, Kind, NodeRec } from './types.js';
import { SimError } from './types.js';
import type { World } from './world.js';

export type Params = Record<string, string | string[] | undefined>;

/** Everything a handler may read: the world at one instant, seen from one cluster member. */
export interface Ctx {
  kind: Kind;
  world: World;
  auth: Auth;
  /** Node name of the member whose listener received the request. */
  local: string;
  nowSec: number;
  /** Query or form parameters merged with path parameters. */
  params: Params;
  user: string;
  fingerprint: string;
}

/** A result with top-level siblings of `data` (e.g. `total`), as some real handlers send. */
export class Enveloped {
  constructor(
    readonly data: unknown,
    readonly extra: Record<string, unknown>,
  ) {}
}

export type Handler = (c: Ctx) => unknown;
export type RouteDef = [method: string, template: string, handler: Handler];

/** Perl APIs send booleans as 0/1. */
export const b01 = (x: boolean): 0 | 1 => (x ? 1 : 0);

export const hex8 = (n: number): string => (n >>> 0).toString(16).toUpperCase().padStart(8, '0');

export function str(c: Ctx, name: string): string | undefined {
  const v = c.params[name];
  return Array.isArray(v) ? v[0] : v;
}

export function int(c: Ctx, name: string, dflt?: number): number | undefined {
  const v = str(c, name);
  return v === undefined || v === '' ? dflt : Number(v);
}

export function bool(c: Ctx, name: string): boolean {
  const v = str(c, name);
  return v !== undefined && /^(1|on|yes|true)$/i.test(v);
}

/**
 * A node addressed through this member: the member proxies to it, so an offline target gives the
 * proxy error the real cluster answers (595).
 */
export function reachNode(c: Ctx, name: string): NodeRec {
  const n = c.world.nodeByName.get(name);
  if (!n) throw new SimError(500, `hostname lookup '${name}' failed - failed to get address info for: ${name}`);
  if (!n.online && n.name !== c.local) throw new SimError(595, `Connection refused`);
  return n;
}

/** A guest on the given node with the given type, or the error the real API gives for a missing config. */
export function guestOn(c: Ctx, type: 'qemu' | 'lxc'): GuestRec {
  const node = reachNode(c, str(c, 'node')!);
  const vmid = int(c, 'vmid')!;
  const g = c.world.guestById.get(vmid);
  if (!g || g.node !== node.name || g.type !== type) {
    const dir = type === 'qemu' ? 'qemu-server' : 'lxc';
    throw new SimError(500, `Configuration file 'nodes/${node.name}/${dir}/${vmid}.conf' does not exist`);
  }
  return g;
}

/** Paging like the real task lists: `start` offset, `limit` count, total reported beside data. */
export function page<T>(items: T[], c: Ctx, dfltLimit: number): Enveloped {
  const start = int(c, 'start', 0)!;
  const limit = int(c, 'limit', dfltLimit)!;
  return new Enveloped(items.slice(start, limit > 0 ? start + limit : undefined), { total: items.length });
}

/** Daily backup times of a guest (01:00 UTC + a per-guest offset), newest first, finished ones only. */
export function backupTimes(vmid: number, nowSec: number, days: number): number[] {
  const out: number[] = [];
  const today = Math.floor(nowSec / 86400);
  for (let d = 0; d < days + 1 && out.length < days; d++) {
    const t = (today - d) * 86400 + 3600 + (vmid % 120) * 30;
    if (t + backupDuration(vmid) <= nowSec) out.push(t);
  }
  return out;
}

export function backupDuration(vmid: number): number {
  return 60 + (vmid % 17) * 20;
}

export function isoDate(t: number): string {
  return new Date(t * 1000).toISOString().slice(0, 19);
}

/** `2026_01_15-01_00_05`, the timestamp format of vzdump file names. */
export function vzdumpStamp(t: number): string {
  return isoDate(t).replaceAll('-', '_').replace('T', '-').replaceAll(':', '_');
}
