/** Domain records produced by the collectors; field names follow the v5 state payload (`/api/state`). */
export type NodeKind = 'hv' | 'bak' | 'mail';
export const nodeKinds: readonly NodeKind[] = ['hv', 'bak', 'mail'];

/** Health of a monitored resource as seen by svc (not the guest's own run state). */
export type Health = 'online' | 'offline' | 'warning' | 'unknown';
export type ConnectionHealth = 'healthy' | 'degraded' | 'error';
export type MemorySource = 'guest-agent' | 'balloon' | 'status';
export type DiskSource = 'guest-agent' | 'status' | 'none';

export interface MemoryUsage {
  total: number;
  used: number;
  free: number;
  /** Percent 0..100. */
  usage: number;
  balloon?: number;
  swapUsed?: number;
  swapTotal?: number;
}

export interface DiskUsage {
  total: number;
  used: number;
  free: number;
  usage: number;
  mountpoint?: string;
  type?: string;
  device?: string;
}

export interface NodeRecord {
  id: string;
  node: string;
  name: string;
  displayName: string;
  instance: string;
  host?: string;
  status: Health;
  type: 'node';
  cpu: number;
  memory: MemoryUsage;
  mem: number;
  maxmem: number;
  disk: DiskUsage;
  maxdisk: number;
  uptime: number;
  loadAverage: number[];
  kernelVersion: string;
  pveVersion: string;
  cpuInfo: { model: string; cores: number; sockets: number; mhz: string };
  lastSeen: number;
  connectionHealth: ConnectionHealth;
  isClusterMember: boolean;
  clusterName?: string;
}

export interface GuestRecord {
  id: string;
  vmid: number;
  name: string;
  node: string;
  instance: string;
  /** running / stopped / paused as reported; `unknown` while the instance is unreachable. */
  status: string;
  type: 'qemu' | 'lxc';
  cpu: number;
  cpus: number;
  memory: MemoryUsage;
  mem: number;
  maxmem: number;
  memorySource: MemorySource;
  disk: DiskUsage;
  disks?: DiskUsage[];
  diskSource: DiskSource;
  diskStatusReason?: string;
  networkIn: number;
  networkOut: number;
  diskRead: number;
  diskWrite: number;
  uptime: number;
  template: boolean;
  tags?: string;
  lock?: string;
  agent?: boolean;
  lastSeen: number;
}

export interface StorageRecord {
  id: string;
  storage: string;
  name: string;
  node: string;
  instance: string;
  type: string;
  status: string;
  total: number;
  used: number;
  avail: number;
  free: number;
  usage: number;
  content: string;
  shared: boolean;
  enabled: boolean;
  active: boolean;
}

export interface StorageBackup {
  id: string;
  storage: string;
  node: string;
  instance: string;
  type: 'qemu' | 'lxc' | 'unknown';
  vmid: number;
  time: number;
  ctime: number;
  size: number;
  format: string;
  notes?: string;
  protected: boolean;
  volid: string;
  isPBS: boolean;
  verified: boolean;
}

export interface BackupTask {
  id: string;
  node: string;
  instance: string;
  type: string;
  vmid: number;
  status: string;
  startTime: number;
  endTime?: number;
  error?: string;
}

export interface GuestSnapshot {
  id: string;
  name: string;
  node: string;
  instance: string;
  type: 'qemu' | 'lxc';
  vmid: number;
  time: number;
  description?: string;
  parent?: string;
  vmstate: boolean;
}

export interface PhysicalDisk {
  id: string;
  node: string;
  instance: string;
  devPath: string;
  model: string;
  serial: string;
  type: string;
  size: number;
  health: string;
  wearout: number | null;
  used: string;
}

export interface DatastoreRecord {
  name: string;
  total: number;
  used: number;
  free: number;
  usage: number;
  status: string;
  error?: string;
}

export interface BakJob {
  id: string;
  store: string;
  status: string;
  lastRun?: number;
  nextRun?: number;
  error?: string;
}

export interface BakInstanceRecord {
  id: string;
  name: string;
  host: string;
  status: Health;
  version: string;
  cpu: number;
  memory: number;
  memoryUsed: number;
  memoryTotal: number;
  uptime: number;
  datastores: DatastoreRecord[];
  backupJobs: BakJob[];
  syncJobs: BakJob[];
  verifyJobs: BakJob[];
  pruneJobs: BakJob[];
  garbageJobs: BakJob[];
  connectionHealth: ConnectionHealth;
  lastSeen: number;
}

export interface BakBackup {
  id: string;
  instance: string;
  datastore: string;
  namespace: string;
  backupType: string;
  vmid: string;
  backupTime: number;
  size: number;
  protected: boolean;
  verified: boolean;
  comment?: string;
  owner?: string;
  files?: string[];
}

export interface MailStats {
  countTotal: number;
  countIn: number;
  countOut: number;
  spamIn: number;
  spamOut: number;
  virusIn: number;
  virusOut: number;
  bouncesIn: number;
  bouncesOut: number;
  bytesIn: number;
  bytesOut: number;
  greylistCount: number;
  junkIn: number;
  averageProcessTimeMs: number;
  rblRejects: number;
  pregreetRejects: number;
  updatedAt: number;
}

export interface MailQueueStatus {
  active: number;
  deferred: number;
  hold: number;
  incoming: number;
  total: number;
  oldestAge: number;
  updatedAt: number;
}

export interface MailNode {
  name: string;
  status: Health;
  role?: string;
  uptime?: number;
  loadAvg?: string;
  queueStatus?: MailQueueStatus;
}

export interface MailBackup {
  id: string;
  instance: string;
  node: string;
  filename: string;
  backupTime: number;
  size: number;
}

export interface MailInstanceRecord {
  id: string;
  name: string;
  host: string;
  status: Health;
  version: string;
  nodes: MailNode[];
  mailStats?: MailStats;
  quarantine?: { spam: number; virus: number; attachment: number; blacklisted: number };
  connectionHealth: ConnectionHealth;
  lastSeen: number;
}
