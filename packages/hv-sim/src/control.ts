import type { Fault, FaultSpec, Faults } from './faults.js';
import { guestNow, nodeNow } from './metrics.js';
import type { Auth } from './sim.auth.js';
import type { GuestRec, GuestValues, NodeRec, NodeValues } from './types.js';
import { SimError } from './types.js';
import type { NewGuest, World } from './world.js';

const NODE_KEYS = ['cpu', 'mem', 'maxmem', 'maxcpu', 'uptime', 'rootUsed', 'rootTotal', 'loadavg'] as const;
const GUEST_KEYS = [
  'cpu',
  'mem',
  'maxmem',
  'disk',
  'maxdisk',
  'netin',
  'netout',
  'diskread',
  'diskwrite',
  'uptime',
  'name',
  'tags',
  'lock',
  'memAvailable',
] as const;

/** What tests (in process, or over `/_sim/`) can do to the simulated estate. */
export interface Control {
  summary(): unknown;
  setNode(name: string, values: Record<string, unknown>): NodeRec;
  setNodeOnline(name: string, online: boolean): NodeRec;
  setGuest(vmid: number, values: Record<string, unknown>): GuestRec;
  startGuest(vmid: number): GuestRec;
  stopGuest(vmid: number): GuestRec;
  addGuest(spec: NewGuest): GuestRec;
  removeGuest(vmid: number): void;
  addFault(spec: FaultSpec): Fault;
  removeFault(id: number): boolean;
  clearFaults(): void;
  faults(): Fault[];
  /** Invalidates every ticket issued so far (auth-expiry). */
  expireTickets(): void;
  setTicketLifetime(sec: number): void;
  advanceClock(ms: number): void;
}

/** Applies `values` onto overrides: a value pins the field, `null` returns it to the computed one. */
function applyValues<T extends object>(target: T, values: Record<string, unknown>, allowed: readonly string[]): void {
  for (const [k, v] of Object.entries(values)) {
    if (!allowed.includes(k)) throw new SimError(400, `unknown field '${k}' (allowed: ${allowed.join(', ')})`);
    const t = target as Record<string, unknown>;
    if (v === null) delete t[k];
    else if (k === 'name' || k === 'tags' || k === 'lock') t[k] = String(v);
    else if (k === 'loadavg' && Array.isArray(v) && v.length === 3 && v.every((x) => typeof x === 'number')) t[k] = v;
    else if (typeof v === 'number' && Number.isFinite(v) && v >= 0) t[k] = k === 'cpu' ? v : Math.floor(v);
    else throw new SimError(400, `invalid value for '${k}'`);
  }
  if ((target as { cpu?: number }).cpu !== undefined && (target as { cpu: number }).cpu > 1)
    throw new SimError(400, `cpu is a fraction from 0 to 1`);
}

export function makeControl(world: World, auth: Auth, faults: Faults): Control {
  return {
    summary: () => summarize(world, auth, faults),
    setNode(name, values) {
      const n = world.node(name);
      const { online, ...rest } = values;
      applyValues<NodeValues>(n.set, rest, NODE_KEYS);
      if (typeof online === 'boolean') n.online = online;
      return n;
    },
    setNodeOnline(name, online) {
      const n = world.node(name);
      n.online = online;
      return n;
    },
    setGuest(vmid, values) {
      const g = world.guest(vmid);
      applyValues<GuestValues>(g.set, values, GUEST_KEYS);
      return g;
    },
    startGuest: (vmid) => world.startGuest(vmid),
    stopGuest: (vmid) => world.stopGuest(vmid),
    addGuest: (spec) => world.addGuest(spec),
    removeGuest: (vmid) => world.removeGuest(vmid),
    addFault: (spec) => faults.add(spec),
    removeFault: (id) => faults.remove(id),
    clearFaults: () => faults.clear(),
    faults: () => faults.all(),
    expireTickets: () => {
      auth.generation++;
    },
    setTicketLifetime: (sec) => {
      auth.lifetimeSec = sec;
    },
    advanceClock: (ms) => {
      world.offsetMs += ms;
    },
  };
}

function summarize(world: World, auth: Auth, faults: Faults): unknown {
  const nowSec = world.nowSec();
  return {
    kind: world.kind,
    cluster: world.cluster ?? null,
    now: nowSec,
    ticketLifetimeSec: auth.lifetimeSec,
    nodes: world.nodes.map((n) => ({
      name: n.name,
      online: n.online,
      values: nodeNow(world, n, nowSec),
      pinned: n.set,
      guests: world.guestsOf(n.name).map((g) => ({
        vmid: g.vmid,
        type: g.type,
        name: g.set.name ?? g.name,
        agent: g.agent,
        values: guestNow(world, g, nowSec),
        pinned: g.set,
      })),
    })),
    faults: faults.all(),
  };
}
