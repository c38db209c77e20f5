import { RRD_STEP } from './hv.node.routes.js';
import { guestNow } from './metrics.js';
import { hash32, pick } from './noise.js';
import { b01, type Ctx, guestOn, type RouteDef, reachNode, str } from './routes.common.js';
import type { GuestRec } from './types.js';
import { SimError } from './types.js';

const MiB = 1024 ** 2;

/** Optional fields last, so every entry of a list shares one object shape (cheap to build and serialize). */
function addOptional(out: Record<string, unknown>, g: GuestRec): Record<string, unknown> {
  const tags = g.set.tags ?? g.tags;
  if (tags) out.tags = tags;
  if (g.set.lock) out.lock = g.set.lock;
  return out;
}

function qemuEntry(c: Ctx, g: GuestRec, full: boolean): Record<string, unknown> {
  const m = guestNow(c.world, g, c.nowSec);
  const out: Record<string, unknown> = {
    vmid: g.vmid,
    name: g.set.name ?? g.name,
    status: m.running ? 'running' : 'stopped',
    cpu: m.cpu,
    cpus: g.cpus,
    mem: m.mem,
    maxmem: m.maxmem,
    memhost: m.mem,
    // The hypervisor sees no guest filesystem usage for VMs; only the agent's fsinfo has it.
    disk: 0,
    maxdisk: m.maxdisk,
    diskread: m.diskread,
    diskwrite: m.diskwrite,
    netin: m.netin,
    netout: m.netout,
    uptime: m.uptime,
  };
  if (m.running) {
    out.pid = 1000 + (hash32(g.vmid ^ g.startedSec) % 4000000);
    if (full)
      Object.assign(out, { qmpstatus: 'running', 'running-machine': 'pc-q35-9.2+pve1', 'running-qemu': '9.2.0' });
  }
  return addOptional(out, g);
}

function lxcEntry(c: Ctx, g: GuestRec): Record<string, unknown> {
  const m = guestNow(c.world, g, c.nowSec);
  const out: Record<string, unknown> = {
    vmid: g.vmid,
    name: g.set.name ?? g.name,
    type: 'lxc',
    status: m.running ? 'running' : 'stopped',
    cpu: m.cpu,
    cpus: g.cpus,
    mem: m.mem,
    maxmem: m.maxmem,
    swap: 0,
    maxswap: 512 * MiB,
    disk: m.disk,
    maxdisk: m.maxdisk,
    diskread: m.diskread,
    diskwrite: m.diskwrite,
    netin: m.netin,
    netout: m.netout,
    uptime: m.uptime,
  };
  return addOptional(out, g);
}

function qemuList(c: Ctx): unknown[] {
  const n = reachNode(c, str(c, 'node')!);
  const full = str(c, 'full') === '1';
  return c.world.guestsOf(n.name).flatMap((g) => (g.type === 'qemu' ? [qemuEntry(c, g, full)] : []));
}

function lxcList(c: Ctx): unknown[] {
  const n = reachNode(c, str(c, 'node')!);
  return c.world.guestsOf(n.name).flatMap((g) => (g.type === 'lxc' ? [lxcEntry(c, g)] : []));
}

function qemuCurrent(c: Ctx): Record<string, unknown> {
  const g = guestOn(c, 'qemu');
  const out: Record<string, unknown> = { ...qemuEntry(c, g, true), ha: { managed: 0 }, agent: b01(g.agent) };
  if (!g.running) out.qmpstatus = 'stopped';
  return out;
}

function lxcCurrent(c: Ctx): Record<string, unknown> {
  return { ...lxcEntry(c, guestOn(c, 'lxc')), ha: { managed: 0 } };
}

function mac(g: GuestRec): string {
  const h = hash32(g.vmid).toString(16).padStart(8, '0').toUpperCase();
  return `BC:24:11:${h.slice(0, 2)}:${h.slice(2, 4)}:${h.slice(4, 6)}`;
}

const digest = (g: GuestRec) => (hash32(g.vmid).toString(16) + hash32(g.vmid + 1).toString(16)).padEnd(40, '0');

function qemuConfig(c: Ctx): Record<string, unknown> {
  const g = guestOn(c, 'qemu');
  const out: Record<string, unknown> = {
    digest: digest(g),
    name: g.set.name ?? g.name,
    cores: g.cpus,
    sockets: 1,
    memory: String((g.set.maxmem ?? g.maxmem) / MiB),
    ostype: 'l26',
    scsihw: 'virtio-scsi-single',
    scsi0: `local-lvm:vm-${g.vmid}-disk-0,iothread=1,size=${Math.round((g.set.maxdisk ?? g.maxdisk) / 1024 ** 3)}G`,
    net0: `virtio=${mac(g)},bridge=vmbr0,firewall=1`,
    boot: 'order=scsi0;net0',
    onboot: 1,
    vmgenid: `${hash32(g.vmid).toString(16).padStart(8, '0')}-1f2e-4d3c-8b7a-000000000000`,
    smbios1: `uuid=${hash32(g.vmid + 7)
      .toString(16)
      .padStart(8, '0')}-aaaa-4bbb-8ccc-000000000000`,
  };
  if (g.agent) out.agent = '1';
  const tags = g.set.tags ?? g.tags;
  if (tags) out.tags = tags;
  return out;
}

function lxcConfig(c: Ctx): Record<string, unknown> {
  const g = guestOn(c, 'lxc');
  const out: Record<string, unknown> = {
    digest: digest(g),
    hostname: g.set.name ?? g.name,
    arch: 'amd64',
    cores: g.cpus,
    memory: (g.set.maxmem ?? g.maxmem) / MiB,
    swap: 512,
    ostype: 'debian',
    rootfs: `local-lvm:vm-${g.vmid}-disk-0,size=${Math.round((g.set.maxdisk ?? g.maxdisk) / 1024 ** 3)}G`,
    net0: `name=eth0,bridge=vmbr0,hwaddr=${mac(g)},ip=dhcp,type=veth`,
    unprivileged: 1,
    onboot: 1,
  };
  const tags = g.set.tags ?? g.tags;
  if (tags) out.tags = tags;
  return out;
}

function snapshots(c: Ctx, type: 'qemu' | 'lxc'): unknown[] {
  const g = guestOn(c, type);
  const out: Array<Record<string, unknown>> = [];
  let parent: string | undefined;
  for (let i = 0; i < g.snapshots; i++) {
    const snaptime = c.world.epochSec - (g.snapshots - i) * 7 * 86400 - pick(0, 86399, c.world.seed, 61, g.vmid);
    const s: Record<string, unknown> = { name: `snap${i + 1}`, description: `before update ${i + 1}`, snaptime };
    if (type === 'qemu') s.vmstate = 0;
    if (parent) s.parent = parent;
    parent = s.name as string;
    out.push(s);
  }
  const current: Record<string, unknown> = { name: 'current', description: 'You are here!', digest: digest(g) };
  if (type === 'qemu') current.running = b01(g.running);
  if (parent) current.parent = parent;
  out.push(current);
  return out;
}

function guestRrd(c: Ctx, type: 'qemu' | 'lxc'): unknown[] {
  const g = guestOn(c, type);
  const step = RRD_STEP[str(c, 'timeframe') ?? 'hour'] ?? 60;
  const end = Math.floor(c.nowSec / step) * step;
  const out: unknown[] = [];
  for (let i = 69; i >= 0; i--) {
    const t = end - i * step;
    const m = guestNow(c.world, g, t);
    const p = guestNow(c.world, g, t - step);
    const rate = (a: number, b: number) => Math.max(0, (a - b) / step);
    out.push({
      time: t,
      cpu: m.cpu,
      maxcpu: g.cpus,
      mem: m.mem,
      maxmem: m.maxmem,
      disk: type === 'qemu' ? 0 : m.disk,
      maxdisk: m.maxdisk,
      diskread: rate(m.diskread, p.diskread),
      diskwrite: rate(m.diskwrite, p.diskwrite),
      netin: rate(m.netin, p.netin),
      netout: rate(m.netout, p.netout),
    });
  }
  return out;
}

export const hvGuestRoutes: RouteDef[] = [
  ['GET', '/nodes/{node}/qemu', qemuList],
  ['GET', '/nodes/{node}/lxc', lxcList],
  ['GET', '/nodes/{node}/qemu/{vmid}/status/current', qemuCurrent],
  ['GET', '/nodes/{node}/lxc/{vmid}/status/current', lxcCurrent],
  ['GET', '/nodes/{node}/qemu/{vmid}/config', qemuConfig],
  ['GET', '/nodes/{node}/lxc/{vmid}/config', lxcConfig],
  ['GET', '/nodes/{node}/qemu/{vmid}/snapshot', (c) => snapshots(c, 'qemu')],
  ['GET', '/nodes/{node}/lxc/{vmid}/snapshot', (c) => snapshots(c, 'lxc')],
  ['GET', '/nodes/{node}/qemu/{vmid}/rrddata', (c) => guestRrd(c, 'qemu')],
  ['GET', '/nodes/{node}/lxc/{vmid}/rrddata', (c) => guestRrd(c, 'lxc')],
  ['GET', '/nodes/{node}/lxc/{vmid}/interfaces', lxcInterfaces],
];

function lxcInterfaces(c: Ctx): unknown[] {
  const g = guestOn(c, 'lxc');
  if (!g.running) throw new SimError(500, `CT ${g.vmid} not running`);
  const ip = `10.20.${(g.vmid >> 8) & 255}.${g.vmid & 255}`;
  return [
    { name: 'lo', hwaddr: '00:00:00:00:00:00', inet: '127.0.0.1/8', inet6: '::1/128' },
    { name: 'eth0', hwaddr: mac(g).toLowerCase(), inet: `${ip}/24` },
  ];
}
