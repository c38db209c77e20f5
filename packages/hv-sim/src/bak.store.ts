import { pick } from './noise.js';
import { backupTimes, type Ctx, str } from './routes.common.js';
import type { GuestRec, NodeRec } from './types.js';
import { SimError } from './types.js';

const TiB = 1024 ** 4;
const MiB = 1024 ** 2;

export function store(c: Ctx): NodeRec {
  const name = str(c, 'store')!;
  const n = c.world.nodeByName.get(name);
  if (!n) throw new SimError(400, `datastore '${name}' does not exist`);
  return n;
}

export function snapSize(c: Ctx, g: GuestRec): number {
  return Math.floor(g.maxdisk * 0.3) + pick(0, 1024, c.world.seed, 71, g.vmid) * MiB;
}

export function storeUsage(c: Ctx, n: NodeRec): { total: number; used: number; avail: number } {
  const total = (n.set.rootTotal ?? 8 * TiB) as number;
  let used = n.set.rootUsed ?? Math.floor(total * 0.05);
  if (n.set.rootUsed === undefined)
    for (const g of c.world.guestsOf(n.name))
      used += Math.floor(snapSize(c, g) * 0.45) * backupTimes(g.vmid, c.nowSec, 7).length;
  used = Math.min(used, total);
  return { total, used, avail: total - used };
}

export function gcStatus(c: Ctx, n: NodeRec): Record<string, number> {
  const u = storeUsage(c, n);
  return {
    'disk-bytes': u.used,
    'disk-chunks': Math.floor(u.used / (4 * MiB)),
    'index-data-bytes': u.used * 2,
    'index-file-count': c.world.guestsOf(n.name).length * 7,
    'pending-bytes': 0,
    'pending-chunks': 0,
    'removed-bad': 0,
    'removed-bytes': 0,
    'removed-chunks': 0,
    'still-bad': 0,
  };
}

export function verifyUpid(t: number, storeName: string): string {
  const h = (x: number) => (x >>> 0).toString(16).toUpperCase().padStart(8, '0');
  return `UPID:localhost:${h(1000 + (t % 9000))}:${h(t % 100000)}:${h(t)}:${h(t)}:verify:${storeName}:root@pam:`;
}
