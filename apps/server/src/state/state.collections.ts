import type {
  BackupTask,
  BakBackup,
  BakInstanceRecord,
  GuestRecord,
  GuestSnapshot,
  MailBackup,
  MailInstanceRecord,
  NodeRecord,
  PhysicalDisk,
  StorageBackup,
  StorageRecord,
} from '../collectors/index.js';

/** The resource collections of the live state; keys match the v5 payload names where one exists. */
export interface CollectionRecords {
  nodes: NodeRecord;
  vms: GuestRecord;
  containers: GuestRecord;
  storage: StorageRecord;
  physicalDisks: PhysicalDisk;
  pbs: BakInstanceRecord;
  pmg: MailInstanceRecord;
  storageBackups: StorageBackup;
  backupTasks: BackupTask;
  guestSnapshots: GuestSnapshot;
  pbsBackups: BakBackup;
  pmgBackups: MailBackup;
}

export type CollectionKey = keyof CollectionRecords;

export const collectionKeys: readonly CollectionKey[] = [
  'nodes',
  'vms',
  'containers',
  'storage',
  'physicalDisks',
  'pbs',
  'pmg',
  'storageBackups',
  'backupTasks',
  'guestSnapshots',
  'pbsBackups',
  'pmgBackups',
];

export interface Entry<T> {
  rec: T;
  /** Owning configured instance: a failed or removed instance affects only its own resources. */
  instance: string;
  /** Bumped on every real change; lets consumers skip unchanged resources. */
  version: number;
}

/** One collection: records by id, plus the ids per instance so an instance's set can be replaced. */
export class Collection<T extends { id: string }> {
  readonly byId = new Map<string, Entry<T>>();
  private readonly byInstance = new Map<string, Set<string>>();

  ids(instance: string): ReadonlySet<string> {
    return this.byInstance.get(instance) ?? new Set();
  }

  set(instance: string, rec: T, version: number): void {
    this.byId.set(rec.id, { rec, instance, version });
    let ids = this.byInstance.get(instance);
    if (!ids) {
      ids = new Set();
      this.byInstance.set(instance, ids);
    }
    ids.add(rec.id);
  }

  delete(id: string): void {
    const e = this.byId.get(id);
    if (!e) return;
    this.byId.delete(id);
    const ids = this.byInstance.get(e.instance);
    ids?.delete(id);
    if (ids && ids.size === 0) this.byInstance.delete(e.instance);
  }

  values(): T[] {
    return Array.from(this.byId.values(), (e) => e.rec);
  }

  get size(): number {
    return this.byId.size;
  }
}
