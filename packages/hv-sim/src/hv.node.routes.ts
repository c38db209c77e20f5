import { nodeStorage, storageConfig, storageContent } from './hv.storage.js';
import { hvTaskRoutes } from './hv.tasks.js';
import { nodeNow } from './metrics.js';
import { hash32 } from './noise.js';
import { type Ctx, type RouteDef, reachNode, str } from './routes.common.js';

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
  ...hvTaskRoutes,
  ['GET', '/nodes/{node}/network', network],
  ['GET', '/nodes/{node}/apt/update', aptUpdates],
  ['GET', '/nodes/{node}/rrddata', nodeRrd],
];
