import type { Collection, CollectionKey, CollectionRecords } from './state.collections.js';

type Records<K extends CollectionKey> = CollectionRecords[K][];

/**
 * The `/api/state` payload in the v5 shape. Collections owned by other parts of svc (agents, alerts,
 * metrics) start empty here; the route layer fills them from their own services.
 */
export interface StatePayload {
  nodes: Records<'nodes'>;
  vms: Records<'vms'>;
  containers: Records<'containers'>;
  storage: Records<'storage'>;
  physicalDisks: Records<'physicalDisks'>;
  pbs: Records<'pbs'>;
  pmg: Records<'pmg'>;
  pbsBackups: Records<'pbsBackups'>;
  pmgBackups: Records<'pmgBackups'>;
  pveBackups: {
    backupTasks: Records<'backupTasks'>;
    storageBackups: Records<'storageBackups'>;
    guestSnapshots: Records<'guestSnapshots'>;
  };
  backups: { pve: StatePayload['pveBackups']; pbs: Records<'pbsBackups'>; pmg: Records<'pmgBackups'> };
  dockerHosts: unknown[];
  removedDockerHosts: unknown[];
  kubernetesClusters: unknown[];
  removedKubernetesClusters: unknown[];
  hosts: unknown[];
  removedHosts: unknown[];
  cephClusters: unknown[];
  replicationJobs: unknown[];
  activeAlerts: unknown[];
  metrics: Record<string, unknown>;
  performance: Record<string, unknown>;
  connectionHealth: Record<string, boolean>;
  stats: { nodes: number; vms: number; containers: number; storage: number };
  lastUpdate: number;
  temperatureMonitoringEnabled: boolean;
}

export function buildPayload(
  cols: { [K in CollectionKey]: Collection<CollectionRecords[K]> },
  lastUpdate: number,
  connectionHealth: Record<string, boolean>,
): StatePayload {
  const pveBackups = {
    backupTasks: cols.backupTasks.values(),
    storageBackups: cols.storageBackups.values(),
    guestSnapshots: cols.guestSnapshots.values(),
  };
  const pbsBackups = cols.pbsBackups.values();
  const pmgBackups = cols.pmgBackups.values();
  return {
    nodes: cols.nodes.values(),
    vms: cols.vms.values(),
    containers: cols.containers.values(),
    storage: cols.storage.values(),
    physicalDisks: cols.physicalDisks.values(),
    pbs: cols.pbs.values(),
    pmg: cols.pmg.values(),
    pbsBackups,
    pmgBackups,
    pveBackups,
    backups: { pve: pveBackups, pbs: pbsBackups, pmg: pmgBackups },
    dockerHosts: [],
    removedDockerHosts: [],
    kubernetesClusters: [],
    removedKubernetesClusters: [],
    hosts: [],
    removedHosts: [],
    cephClusters: [],
    replicationJobs: [],
    activeAlerts: [],
    metrics: {},
    performance: {},
    connectionHealth,
    stats: { nodes: cols.nodes.size, vms: cols.vms.size, containers: cols.containers.size, storage: cols.storage.size },
    lastUpdate,
    temperatureMonitoringEnabled: false,
  };
}
