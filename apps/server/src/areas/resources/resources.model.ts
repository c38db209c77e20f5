/** The unified resource model: one record per real thing, whichever sources see it. */
export const resourceTypes = ['host', 'vm', 'lxc', 'container', 'storage', 'bak', 'mail', 'ceph'] as const;
export const resourceSources = ['hv', 'agent', 'ctr', 'bak', 'mail', 'orch'] as const;
export const resourceStatuses = ['online', 'offline', 'warning', 'unknown'] as const;

export type ResourceType = (typeof resourceTypes)[number];
export type ResourceSource = (typeof resourceSources)[number];
export type ResourceStatus = (typeof resourceStatuses)[number];

/** Facts a source knows about a machine that let two sources recognise the same one. */
export interface Identity {
  machineId?: string;
  hostnames?: string[];
  clusterName?: string;
}

/** What one source reports about one thing, before merging. */
export interface Observation {
  source: ResourceSource;
  /** The source's own id for it, unique within the source (e.g. `hv1/node/pve1`, an agent id). */
  sourceId: string;
  type: ResourceType;
  name: string;
  status: ResourceStatus;
  lastSeen: number;
  identity?: Identity;
  /** The parent's sourceId within the same source (a guest's node, a container's host). */
  parentSourceId?: string;
  cluster?: string;
  tags?: string[];
  metrics?: Partial<Record<'cpu' | 'memory' | 'disk' | 'netin' | 'netout' | 'diskread' | 'diskwrite', number>>;
  /** A key that survives moves within a cluster (hv guests: instance + vmid), used for the resource id. */
  stableKey?: string;
  /** Where the metrics store keeps this thing's history (type and id as the collectors record them). */
  metricsTarget?: MetricsTarget;
  /** Other ids operators know it by (the live-state record id), matched by metadata entries. */
  aliases?: string[];
}

export interface MetricsTarget {
  resourceType: 'node' | 'vm' | 'container' | 'storage' | 'ctrHost' | 'ctrContainer';
  resourceId: string;
}

export interface Resource {
  id: string;
  type: ResourceType;
  name: string;
  status: ResourceStatus;
  sources: ResourceSource[];
  sourceStatus: Partial<Record<ResourceSource, ResourceStatus>>;
  parentId?: string;
  cluster?: string;
  tags: string[];
  lastSeen: number;
  identity: Identity;
  metrics: Observation['metrics'];
  /** The observations merged into this resource, as `source:sourceId`. */
  members: string[];
  metricsTarget?: MetricsTarget;
}

/** A manual merge decision, persisted: link two resources into one, or keep two apart. */
export interface MergeOverride {
  kind: 'link' | 'exclude';
  /** Observation keys (`source:sourceId`). */
  a: string;
  b: string;
}

export const observationKey = (o: Pick<Observation, 'source' | 'sourceId'>): string => `${o.source}:${o.sourceId}`;
