/** Row types of svc-telemetry's tables. Times are milliseconds since the epoch; `day` is the UTC date. */
export interface InstallsTable {
  random_id: string;
  created_at: number;
  updated_at: number;
  day: string;
  type: string;
  nsapp: string;
  status: string;
  error: string;
  ct_type: number | null;
  disk_size: number | null;
  core_count: number | null;
  ram_size: number | null;
  os_type: string;
  os_version: string;
  disableip6: string;
  method: string;
  hv_version: string;
}

/**
 * dim: all | nsapp | type | os (k1 os_type, k2 os_version) | error (k1 text) | error_app (k1 nsapp, k2 text).
 * grain: d (day = YYYY-MM-DD), m (day = YYYY-MM), t (all time, day = '').
 */
export interface InstallCountsTable {
  dim: string;
  grain: 'd' | 'm' | 't';
  day: string;
  k1: string;
  k2: string;
  status: string;
  n: number;
}

export interface OrphanUpdatesTable {
  day: string;
  status: string;
  n: number;
}

export interface TelemetryDatabase {
  installs: InstallsTable;
  install_counts: InstallCountsTable;
  orphan_updates: OrphanUpdatesTable;
}
