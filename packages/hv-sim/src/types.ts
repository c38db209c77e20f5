export type Kind = 'hv' | 'bak' | 'mail';
export type GuestType = 'qemu' | 'lxc';

/** Injectable time source in milliseconds since the epoch. */
export type Clock = () => number;

export interface TokenCredential {
  /** `user@realm!tokenid` */
  tokenId: string;
  secret: string;
}

export interface UserCredential {
  /** `user@realm` */
  username: string;
  password: string;
}

export interface SimulatorOptions {
  kind: Kind;
  host?: string;
  port?: number;
  nodes?: number;
  guestsPerNode?: number;
  seed?: string | number;
  /** hv: the nodes form a cluster of this name and each member gets its own listener. */
  cluster?: string;
  tls?: boolean;
  tokens?: TokenCredential[];
  users?: UserCredential[];
  /** Answer 400 to parameters the official schema refuses (default true). */
  strict?: boolean;
  clock?: Clock;
  /** Used by the latency fault; injectable so tests need not wait. */
  delay?: (ms: number) => Promise<void>;
}

/** Values a test may pin on a node; anything unset is computed from seed and time. */
export interface NodeValues {
  cpu?: number;
  mem?: number;
  maxmem?: number;
  maxcpu?: number;
  uptime?: number;
  rootUsed?: number;
  rootTotal?: number;
  loadavg?: [number, number, number];
}

export interface GuestValues {
  cpu?: number;
  mem?: number;
  maxmem?: number;
  disk?: number;
  maxdisk?: number;
  netin?: number;
  netout?: number;
  diskread?: number;
  diskwrite?: number;
  uptime?: number;
  name?: string;
  tags?: string;
  lock?: string;
  /** Guest-agent memory: MemAvailable in bytes (VMs with an agent). */
  memAvailable?: number;
}

export interface NodeRec {
  name: string;
  index: number;
  online: boolean;
  maxcpu: number;
  maxmem: number;
  rootTotal: number;
  bootSec: number;
  ip: string;
  set: NodeValues;
}

export interface GuestRec {
  vmid: number;
  type: GuestType;
  node: string;
  name: string;
  cpus: number;
  maxmem: number;
  maxdisk: number;
  agent: boolean;
  running: boolean;
  /** Epoch seconds when the guest last started; counters and uptime start here. */
  startedSec: number;
  template: boolean;
  tags: string;
  snapshots: number;
  set: GuestValues;
}

/** Thrown by route handlers; the server formats it the way the simulated product does. */
export class SimError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors?: Record<string, string>,
  ) {
    super(message);
  }
}
