import { guestNow } from './metrics.js';
import { hash32 } from './noise.js';
import { type Ctx, guestOn, type RouteDef, str } from './routes.common.js';
import type { GuestRec } from './types.js';
import { SimError } from './types.js';

/** Guards every agent call the way qemu-server's Agent.pm does, in the same order. */
function agentGuest(c: Ctx): GuestRec {
  const g = guestOn(c, 'qemu');
  if (!g.agent) throw new SimError(500, 'No QEMU guest agent configured');
  if (!g.running) throw new SimError(500, `VM ${g.vmid} is not running`);
  return g;
}

function fsinfo(c: Ctx): unknown {
  const g = agentGuest(c);
  const m = guestNow(c.world, g, c.nowSec);
  const rootTotal = Math.floor(m.maxdisk * 0.96);
  const diskInfo = (dev: string) => [
    {
      'bus-type': 'scsi',
      bus: 0,
      target: 0,
      unit: 0,
      serial: `0QEMU_QEMU_HARDDISK_drive-scsi0`,
      dev,
      'pci-controller': { domain: 0, bus: 9, slot: 1, function: 0 },
    },
  ];
  return {
    result: [
      {
        name: 'sda1',
        mountpoint: '/',
        type: 'ext4',
        'total-bytes': rootTotal,
        'used-bytes': Math.min(m.disk, rootTotal),
        disk: diskInfo('/dev/sda1'),
      },
      {
        name: 'sda15',
        mountpoint: '/boot/efi',
        type: 'vfat',
        'total-bytes': 129718272,
        'used-bytes': 12280320,
        disk: diskInfo('/dev/sda15'),
      },
    ],
  };
}

function osinfo(c: Ctx): unknown {
  agentGuest(c);
  return {
    result: {
      id: 'debian',
      name: 'Debian GNU/Linux',
      'pretty-name': 'Debian GNU/Linux 12 (bookworm)',
      version: '12 (bookworm)',
      'version-id': '12',
      'kernel-release': '6.1.0-28-amd64',
      'kernel-version': '#1 SMP PREEMPT_DYNAMIC Debian 6.1.119-1 (2024-11-22)',
      machine: 'x86_64',
    },
  };
}

function interfaces(c: Ctx): unknown {
  const g = agentGuest(c);
  const m = guestNow(c.world, g, c.nowSec);
  const h = hash32(g.vmid).toString(16).padStart(8, '0');
  const stats = (rx: number, tx: number) => ({
    'rx-bytes': rx,
    'rx-packets': Math.floor(rx / 800),
    'rx-errs': 0,
    'rx-dropped': 0,
    'tx-bytes': tx,
    'tx-packets': Math.floor(tx / 800),
    'tx-errs': 0,
    'tx-dropped': 0,
  });
  return {
    result: [
      {
        name: 'lo',
        'hardware-address': '00:00:00:00:00:00',
        'ip-addresses': [{ 'ip-address': '127.0.0.1', 'ip-address-type': 'ipv4', prefix: 8 }],
        statistics: stats(0, 0),
      },
      {
        name: 'eth0',
        'hardware-address': `bc:24:11:${h.slice(0, 2)}:${h.slice(2, 4)}:${h.slice(4, 6)}`,
        'ip-addresses': [
          { 'ip-address': `10.20.${(g.vmid >> 8) & 255}.${g.vmid & 255}`, 'ip-address-type': 'ipv4', prefix: 24 },
          {
            'ip-address': `fe80::be24:11ff:fe${h.slice(0, 2)}:${h.slice(2, 6)}`,
            'ip-address-type': 'ipv6',
            prefix: 64,
          },
        ],
        statistics: stats(m.netin, m.netout),
      },
    ],
  };
}

/** /proc/meminfo as the agent reads it; MemAvailable is what svc must prefer over the balloon figure. */
function meminfo(g: GuestRec, c: Ctx): string {
  const m = guestNow(c.world, g, c.nowSec);
  const kb = (x: number) => `${Math.floor(x / 1024)} kB`.padStart(12);
  const total = m.maxmem - 180 * 1024 * 1024;
  const available = Math.min(total, m.memAvailable);
  const free = Math.floor(available * 0.4);
  const cached = Math.max(0, available - free);
  return (
    `MemTotal:       ${kb(total)}\nMemFree:        ${kb(free)}\nMemAvailable:   ${kb(available)}\n` +
    `Buffers:        ${kb(cached * 0.05)}\nCached:         ${kb(cached * 0.9)}\nSwapCached:     ${kb(0)}\n` +
    `SwapTotal:      ${kb(1024 ** 3)}\nSwapFree:       ${kb(1024 ** 3)}\n`
  );
}

function fileRead(c: Ctx): unknown {
  const g = agentGuest(c);
  const file = str(c, 'file');
  if (file !== '/proc/meminfo') throw new SimError(500, `guest-file-open failed: No such file or directory`);
  const content = meminfo(g, c);
  return { content, 'bytes-read': Buffer.byteLength(content) };
}

function info(c: Ctx): unknown {
  agentGuest(c);
  const cmds = [
    'guest-get-fsinfo',
    'guest-get-osinfo',
    'guest-network-get-interfaces',
    'guest-file-open',
    'guest-ping',
  ];
  return {
    result: {
      version: '7.2.0',
      supported_commands: cmds.map((name) => ({ name, enabled: true, 'success-response': true })),
    },
  };
}

export const hvAgentRoutes: RouteDef[] = [
  ['GET', '/nodes/{node}/qemu/{vmid}/agent/get-fsinfo', fsinfo],
  ['GET', '/nodes/{node}/qemu/{vmid}/agent/get-osinfo', osinfo],
  ['GET', '/nodes/{node}/qemu/{vmid}/agent/network-get-interfaces', interfaces],
  ['GET', '/nodes/{node}/qemu/{vmid}/agent/file-read', fileRead],
  ['GET', '/nodes/{node}/qemu/{vmid}/agent/info', info],
];
