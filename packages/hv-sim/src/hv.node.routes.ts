import { nodeStorage, storageConfig, storageContent } from './hv.storage.js';
import { nodeNow } from './metrics.js';
import { hash32 } from './noise.js';
import {
  backupDuration,
  backupTimes,
  type Ctx,
  hex8,
  int,
  page,
  type RouteDef,
  reachNode,
  str,
} from './routes.common.js';
import type { NodeRec } from './types.js';

const GB = 1000 ** 3;

function disksList(c: Ctx): unknown[] {
  const n = reachNode(c, str(c, 'node')!);
  const serial = hash32(c.world.seed ^ n.index)
    .toString(16)
    .toUpperCase();
  const disk = (dev: string, type: string, size: number, model: string, wearout: number | string, used: string) => ({
    devpath: dev,
    type,
    size,
    model,
    serial: `S${serial}${dev.length}`,
    vendor: type === 'hdd' ? 'ATA' : 'unknown',
    wwn: `eui.${serial.toLowerCase()}${dev.length}`,
    health: 'PASSED',
    wearout,
    rpm: type === 'hdd' ? 7200 : 0,
    gpt: 1,
    mounted: 0,
    used,
    osdid: -1,
    'osdid-list': [],
    by_id_link: `/dev/disk/by-id/${type}-${model.replaceAll(' ', '_')}_S${serial}`,
  });
  return [
    disk('/dev/nvme0n1', 'nvme', 1000 * GB, 'Samsung SSD 980 PRO 1TB', 100 - (n.index % 7), 'LVM'),
    disk('/dev/sda', 'hdd', 4000 * GB, 'WDC WD40EFRX-68N32N0', 'N/A', 'ZFS'),
  ];
}

function zfsPools(c: Ctx): unknown[] {
  reachNode(c, str(c, 'node')!);
  const size = 3985729650688;
  const alloc = Math.floor(size * 0.31);
  return [{ name: 'tank', size, alloc, free: size - alloc, frag: 4, dedup: 1, health: 'ONLINE' }];
}

function vzdumpTasks(c: Ctx, n: NodeRec): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  for (const g of c.world.guestsOf(n.name)) {
    for (const t of backupTimes(g.vmid, c.nowSec, 7)) {
      const pid = 100000 + (hash32(g.vmid ^ t) % 900000);
      const pstart = 1000000 + (t % 1000000);
      const fail = hash32(c.world.seed ^ g.vmid ^ t) % 20 === 0;
      out.push({
        upid: `UPID:${n.name}:${hex8(pid)}:${hex8(pstart)}:${hex8(t)}:vzdump:${g.vmid}:root@pam:`,
        node: n.name,
        pid,
        pstart,
        starttime: t,
        endtime: t + backupDuration(g.vmid),
        type: 'vzdump',
        id: String(g.vmid),
        user: 'root@pam',
        status: fail ? `ERROR: job failed with err -5 - Input/output error` : 'OK',
      });
    }
  }
  return out.sort((a, b) => (b.starttime as number) - (a.starttime as number));
}

function tasks(c: Ctx) {
  const n = reachNode(c, str(c, 'node')!);
  const typefilter = str(c, 'typefilter');
  const vmid = int(c, 'vmid');
  const since = int(c, 'since');
  const until = int(c, 'until');
  const errorsOnly = str(c, 'errors') === '1';
  const items = vzdumpTasks(c, n).filter(
    (t) =>
      (!typefilter || t.type === typefilter) &&
      (vmid === undefined || t.id === String(vmid)) &&
      (since === undefined || (t.starttime as number) >= since) &&
      (until === undefined || (t.starttime as number) <= until) &&
      (!errorsOnly || t.status !== 'OK'),
  );
  return page(items, c, 50);
}

function network(c: Ctx): unknown[] {
  const n = reachNode(c, str(c, 'node')!);
  const type = str(c, 'type');
  const all = [
    { iface: 'eno1', type: 'eth', method: 'manual', families: ['inet'], active: 1, exists: 1, priority: 3 },
    {
      iface: 'vmbr0',
      type: 'bridge',
      method: 'static',
      families: ['inet'],
      active: 1,
      autostart: 1,
      address: n.ip,
      netmask: '24',
      cidr: `${n.ip}/24`,
      gateway: n.ip.replace(/\.\d+$/, '.1'),
      bridge_ports: 'eno1',
      bridge_stp: 'off',
      bridge_fd: '0',
      priority: 4,
    },
  ];
  return all.filter((i) => !type || i.type === type || (type === 'any_bridge' && i.type === 'bridge'));
}

function aptUpdates(c: Ctx): unknown[] {
  const n = reachNode(c, str(c, 'node')!);
  if (n.index % 3 !== 0) return [];
  return [
    {
      Package: 'pve-manager',
      Title: 'Proxmox Virtual Environment management tools',
      Description: 'The Proxmox Virtual Environment management tools.',
      Version: '9.1.4',
      OldVersion: '9.1.3',
      Origin: 'Proxmox',
      Priority: 'optional',
      Section: 'admin',
      Arch: 'amd64',
    },
  ];
}

/** rrddata step per timeframe, as rrdcached stores it. */
export const RRD_STEP: Record<string, number> = {
  hour: 60,
  day: 1800,
  week: 10800,
  month: 43200,
  year: 604800,
  decade: 6048000,
};

function nodeRrd(c: Ctx): unknown[] {
  const n = reachNode(c, str(c, 'node')!);
  const step = RRD_STEP[str(c, 'timeframe') ?? 'hour'] ?? 60;
  const end = Math.floor(c.nowSec / step) * step;
  const out: unknown[] = [];
  for (let i = 69; i >= 0; i--) {
    const t = end - i * step;
    const m = nodeNow(c.world, n, t);
    const prev = nodeNow(c.world, n, t - step);
    out.push({
      time: t,
      cpu: m.cpu,
      maxcpu: m.maxcpu,
      iowait: m.wait,
      loadavg: m.loadavg[0],
      memtotal: m.maxmem,
      memused: m.mem,
      swaptotal: 8 * 1024 ** 3,
      swapused: 0,
      roottotal: m.rootTotal,
      rootused: m.rootUsed,
      netin: (m.netin - prev.netin) / step,
      netout: (m.netout - prev.netout) / step,
    });
  }
  return out;
}

export const hvNodeRoutes: RouteDef[] = [
  ['GET', '/nodes/{node}/storage', nodeStorage],
  ['GET', '/nodes/{node}/storage/{storage}/content', storageContent],
  ['GET', '/storage', storageConfig],
  ['GET', '/nodes/{node}/disks/list', disksList],
  ['GET', '/nodes/{node}/disks/zfs', zfsPools],
  ['GET', '/nodes/{node}/tasks', tasks],
  ['GET', '/nodes/{node}/network', network],
  ['GET', '/nodes/{node}/apt/update', aptUpdates],
  ['GET', '/nodes/{node}/rrddata', nodeRrd],
];
