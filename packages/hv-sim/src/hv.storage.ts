import { guestNow } from './metrics.js';
import { pick } from './noise.js';
import { backupTimes, type Ctx, int, reachNode, str, vzdumpStamp } from './routes.common.js';
import type { GuestRec, NodeRec } from './types.js';
import { SimError } from './types.js';
import type { World } from './world.js';

export interface StorageDef {
  storage: string;
  type: string;
  content: string;
  shared: boolean;
}

// Every node has the two storages a default installation creates.
const LOCAL: StorageDef = { storage: 'local', type: 'dir', content: 'iso,vztmpl,backup', shared: false };
const THIN: StorageDef = { storage: 'local-lvm', type: 'lvmthin', content: 'images,rootdir', shared: false };

export function storagesOf(_w: World, _n: NodeRec): StorageDef[] {
  return [LOCAL, THIN];
}

const MiB = 1024 ** 2;

export function backupSize(w: World, g: GuestRec): number {
  return Math.floor(g.maxdisk * 0.25) + pick(0, 512, w.seed, 51, g.vmid) * MiB;
}

/** Used/total bytes of a storage on a node at `c.nowSec`. */
export function storageUsage(c: Ctx, n: NodeRec, s: StorageDef): { used: number; total: number } {
  const w = c.world;
  const guests = w.guestsOf(n.name);
  if (s.storage === 'local') {
    let used = Math.floor(n.rootTotal * 0.08);
    for (const g of guests) used += backupSize(w, g) * backupTimes(g.vmid, c.nowSec, 3).length;
    return { used, total: n.rootTotal * 4 };
  }
  let used = 0;
  let provisioned = 0;
  for (const g of guests) {
    provisioned += g.maxdisk;
    used += guestNow(w, g, c.nowSec).disk;
  }
  return { used, total: Math.max(2 * 1024 ** 4, provisioned * 2) };
}

function storageEntry(c: Ctx, n: NodeRec, s: StorageDef): Record<string, unknown> {
  const u = storageUsage(c, n, s);
  return {
    storage: s.storage,
    type: s.type,
    content: s.content,
    active: 1,
    enabled: 1,
    shared: s.shared ? 1 : 0,
    total: u.total,
    used: u.used,
    avail: u.total - u.used,
    used_fraction: Math.round((u.used / u.total) * 1e6) / 1e6,
  };
}

export function nodeStorage(c: Ctx): unknown[] {
  const n = reachNode(c, str(c, 'node')!);
  const content = str(c, 'content')?.split(',');
  const only = str(c, 'storage');
  return storagesOf(c.world, n)
    .filter((s) => !only || s.storage === only)
    .filter((s) => !content || content.some((x) => s.content.split(',').includes(x)))
    .map((s) => storageEntry(c, n, s));
}

export function storageConfig(c: Ctx): unknown[] {
  const type = str(c, 'type');
  const all = [
    { storage: 'local', type: 'dir', path: '/var/lib/vz', content: 'iso,vztmpl,backup', digest: 'a4f1c2e3' },
    {
      storage: 'local-lvm',
      type: 'lvmthin',
      thinpool: 'data',
      vgname: 'pve',
      content: 'rootdir,images',
      digest: 'a4f1c2e3',
    },
  ];
  return all.filter((s) => !type || s.type === type);
}

function backupItems(c: Ctx, g: GuestRec): Array<Record<string, unknown>> {
  const ext = g.type === 'qemu' ? 'vma.zst' : 'tar.zst';
  const kind = g.type === 'qemu' ? 'qemu' : 'lxc';
  return backupTimes(g.vmid, c.nowSec, 3).map((t) => ({
    volid: `local:backup/vzdump-${kind}-${g.vmid}-${vzdumpStamp(t)}.${ext}`,
    content: 'backup',
    format: ext,
    size: backupSize(c.world, g),
    ctime: t,
    vmid: g.vmid,
    subtype: kind,
    notes: g.set.name ?? g.name,
  }));
}

export function storageContent(c: Ctx): unknown[] {
  const n = reachNode(c, str(c, 'node')!);
  const sid = str(c, 'storage')!;
  const def = storagesOf(c.world, n).find((s) => s.storage === sid);
  if (!def) throw new SimError(500, `storage '${sid}' does not exist`);
  const want = str(c, 'content');
  const vmid = int(c, 'vmid');
  const out: Array<Record<string, unknown>> = [];
  const guests = c.world.guestsOf(n.name).filter((g) => vmid === undefined || g.vmid === vmid);
  if (sid === 'local') {
    if (vmid === undefined) {
      const iso = {
        volid: 'local:iso/debian-12.9.0-amd64-netinst.iso',
        content: 'iso',
        format: 'iso',
        size: 663748608,
        ctime: c.world.epochSec - 86400 * 40,
      };
      const tmpl = 'local:vztmpl/debian-12-standard_12.7-1_amd64.tar.zst';
      out.push(iso, {
        volid: tmpl,
        content: 'vztmpl',
        format: 'tzst',
        size: 126352256,
        ctime: c.world.epochSec - 86400 * 30,
      });
    }
    for (const g of guests) out.push(...backupItems(c, g));
  } else {
    for (const g of guests) {
      const content = g.type === 'qemu' ? 'images' : 'rootdir';
      out.push({ volid: `local-lvm:vm-${g.vmid}-disk-0`, content, format: 'raw', size: g.maxdisk, vmid: g.vmid });
    }
  }
  return want ? out.filter((x) => x.content === want) : out;
}
