import { hashString, pick, unit } from './noise.js';
import type { Clock, GuestRec, GuestType, Kind, NodeRec } from './types.js';
import { SimError } from './types.js';

const GiB = 1024 ** 3;

export interface WorldOptions {
  kind: Kind;
  nodes: number;
  guestsPerNode: number;
  seed: string | number;
  cluster?: string;
  clock: Clock;
}

export interface NewGuest {
  node: string;
  type?: GuestType;
  vmid?: number;
  name?: string;
  maxmem?: number;
  maxdisk?: number;
  cpus?: number;
  agent?: boolean;
  running?: boolean;
}

/**
 * The simulated estate: only static facts (sizes, names, start times) and test overrides are stored;
 * moving metrics are computed on demand from seed + time (see metrics.ts), so a request costs
 * O(what it returns), never O(world).
 */
export class World {
  readonly kind: Kind;
  readonly seed: number;
  readonly cluster: string | undefined;
  /** `--guests-per-node` as given (mail uses it as the deferred-queue length per node). */
  readonly perNode: number;
  readonly nodes: NodeRec[] = [];
  readonly nodeByName = new Map<string, NodeRec>();
  readonly guestsByNode = new Map<string, GuestRec[]>();
  readonly guestById = new Map<number, GuestRec>();
  /** Added to the injected clock by the control API (`/_sim/clock`). */
  offsetMs = 0;
  /** Creation time: the anchor for history that must not move with the clock (snapshots). */
  readonly epochSec: number;
  private readonly clock: Clock;
  private nextVmid = 100;
  private built = false;

  constructor(opts: WorldOptions) {
    this.kind = opts.kind;
    this.seed = typeof opts.seed === 'number' ? opts.seed >>> 0 : hashString(String(opts.seed));
    this.cluster = opts.cluster;
    this.perNode = opts.guestsPerNode;
    this.clock = opts.clock;
    const nowSec = this.nowSec();
    this.epochSec = nowSec;
    for (let i = 0; i < opts.nodes; i++) this.addNode(i, nowSec);
    // Mail gateways have no guests; bak datastores hold one backup group per guest.
    const guests = opts.kind === 'mail' ? 0 : opts.guestsPerNode;
    for (const n of this.nodes) {
      for (let j = 0; j < guests; j++) {
        // Alternate VMs and containers so both lists are populated at any size.
        this.addGuest({ node: n.name, type: j % 2 === 0 ? 'qemu' : 'lxc' });
      }
    }
    this.built = true;
  }

  nowMs(): number {
    return this.clock() + this.offsetMs;
  }

  nowSec(): number {
    return Math.floor(this.nowMs() / 1000);
  }

  private addNode(i: number, nowSec: number): void {
    const s = this.seed;
    const prefix = this.kind === 'bak' ? 'store' : this.kind === 'mail' ? 'pmg' : 'pve';
    const rec: NodeRec = {
      name: `${prefix}${i + 1}`,
      index: i,
      online: true,
      maxcpu: [8, 16, 32, 64][pick(0, 3, s, 11, i)] ?? 16,
      maxmem: [32, 64, 128, 256][pick(0, 3, s, 12, i)]! * GiB,
      rootTotal: [100, 250, 500][pick(0, 2, s, 13, i)]! * GiB,
      bootSec: nowSec - pick(3600, 90 * 86400, s, 14, i),
      ip: `10.${(i >> 8) & 255}.${i & 255}.${10}`,
      set: {},
    };
    this.nodes.push(rec);
    this.nodeByName.set(rec.name, rec);
    this.guestsByNode.set(rec.name, []);
  }

  node(name: string): NodeRec {
    const n = this.nodeByName.get(name);
    if (!n) throw new SimError(404, `no such node '${name}'`);
    return n;
  }

  guest(vmid: number): GuestRec {
    const g = this.guestById.get(vmid);
    if (!g) throw new SimError(404, `no such guest ${vmid}`);
    return g;
  }

  addGuest(spec: NewGuest): GuestRec {
    const node = this.node(spec.node);
    const vmid = spec.vmid ?? this.takeVmid();
    if (this.guestById.has(vmid)) throw new SimError(409, `guest ${vmid} already exists`);
    if (vmid >= this.nextVmid) this.nextVmid = vmid + 1;
    const s = this.seed;
    const type = spec.type ?? 'qemu';
    const stopped = unit(s, 21, vmid) < 0.1;
    const running = spec.running ?? !stopped;
    const g: GuestRec = {
      vmid,
      type,
      node: node.name,
      name: spec.name ?? `${type === 'qemu' ? 'vm' : 'ct'}-${vmid}`,
      cpus: spec.cpus ?? [1, 2, 4, 8][pick(0, 3, s, 22, vmid)]!,
      maxmem: spec.maxmem ?? [1, 2, 4, 8, 16][pick(0, 4, s, 23, vmid)]! * GiB,
      maxdisk: spec.maxdisk ?? [8, 16, 32, 64, 128][pick(0, 4, s, 24, vmid)]! * GiB,
      // About a third of the VMs have no guest agent, so collectors meet the real error.
      agent: type === 'qemu' && (spec.agent ?? unit(s, 25, vmid) < 0.67),
      running,
      // The initial estate has been up for a while; a guest added later has just booted.
      startedSec: this.nowSec() - (this.built ? 0 : pick(600, 30 * 86400, s, 26, vmid)),
      template: false,
      tags: unit(s, 27, vmid) < 0.3 ? 'prod;web' : '',
      snapshots: pick(0, 3, s, 28, vmid),
      set: {},
    };
    this.guestById.set(vmid, g);
    this.guestsByNode.get(node.name)!.push(g);
    return g;
  }

  removeGuest(vmid: number): void {
    const g = this.guest(vmid);
    this.guestById.delete(vmid);
    const list = this.guestsByNode.get(g.node)!;
    list.splice(list.indexOf(g), 1);
  }

  startGuest(vmid: number): GuestRec {
    const g = this.guest(vmid);
    if (!g.running) {
      g.running = true;
      g.startedSec = this.nowSec();
    }
    return g;
  }

  stopGuest(vmid: number): GuestRec {
    const g = this.guest(vmid);
    g.running = false;
    return g;
  }

  private takeVmid(): number {
    while (this.guestById.has(this.nextVmid)) this.nextVmid++;
    return this.nextVmid++;
  }

  guestsOf(node: string): GuestRec[] {
    return this.guestsByNode.get(node) ?? [];
  }

  onlineCount(): number {
    let n = 0;
    for (const x of this.nodes) if (x.online) n++;
    return n;
  }
}
