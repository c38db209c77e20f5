import type { Clock, Logger } from '@svc/platform';
import type { Timers } from '../platform/jobs/index.js';
import type { ClientDeps, ConnectionConfig } from './api.factory.js';
import type { EndpointHealth } from './api.failover.js';
import type { ClusterInfo } from './hv/hv.map.js';
import type {
  BackupTask,
  BakBackup,
  BakInstanceRecord,
  GuestRecord,
  GuestSnapshot,
  MailBackup,
  MailInstanceRecord,
  NodeKind,
  NodeRecord,
  PhysicalDisk,
  StorageBackup,
  StorageRecord,
} from './model.js';

/** What to collect from one instance, beyond the basics. */
export interface CollectOptions {
  /** Query the guest agent of running VMs for memory and filesystems (default true). */
  guestAgent?: boolean;
  /** Backups, snapshots, tasks and disks are polled every Nth cycle (default 10; 0 disables them). */
  slowEvery?: number;
  /** Requests in flight against this instance (default 8). */
  concurrency?: number;
  /** The node record's monitor* switches (hv); all default to true. */
  vms?: boolean;
  containers?: boolean;
  storage?: boolean;
  backups?: boolean;
  physicalDisks?: boolean;
}

/** One configured instance as the collectors need it (the persisted node record minus presentation). */
export interface InstanceConfig extends ConnectionConfig {
  id: string;
  kind: NodeKind;
  name: string;
  /** Poll interval override (ms); default per kind. */
  intervalMs?: number;
  enabled?: boolean;
  collect?: CollectOptions;
}

export interface HvPollResult {
  kind: 'hv';
  at: number;
  cluster: ClusterInfo | undefined;
  nodes: NodeRecord[];
  vms: GuestRecord[];
  containers: GuestRecord[];
  storage: StorageRecord[];
  /** Present only on slow cycles; absent means "unchanged since the last slow cycle". */
  slow?: { backups: StorageBackup[]; backupTasks: BackupTask[]; snapshots: GuestSnapshot[]; disks: PhysicalDisk[] };
  warnings: string[];
}

export interface BakPollResult {
  kind: 'bak';
  at: number;
  instance: BakInstanceRecord;
  slow?: { backups: BakBackup[] };
  warnings: string[];
}

export interface MailPollResult {
  kind: 'mail';
  at: number;
  instance: MailInstanceRecord;
  slow?: { backups: MailBackup[] };
  warnings: string[];
}

export type PollResult = HvPollResult | BakPollResult | MailPollResult;

export interface ConnectionTest {
  kind: NodeKind;
  version: string;
  /** hv: cluster name and member endpoints from /cluster/status. */
  cluster?: { name: string; members: Array<{ name: string; ip?: string; online: boolean }> };
}

export interface Collector {
  readonly kind: NodeKind;
  poll(signal: AbortSignal): Promise<PollResult>;
  /** Log in and read the version (and cluster membership for hv): for add/test. */
  test(signal: AbortSignal): Promise<ConnectionTest>;
  /** Health of each endpoint (cluster members) behind this instance. */
  endpoints(): EndpointHealth[];
  close(): Promise<void>;
}

export interface CollectorDeps extends ClientDeps {
  clock: Clock;
  timers: Timers;
  logger?: Logger;
}

export type CollectorFactory = (cfg: InstanceConfig, deps: CollectorDeps) => Collector;
