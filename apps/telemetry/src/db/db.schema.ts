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
 * grain: d (day = YYYY-MM-DD), m (day = YYYY-MM), t (all time, day = ''). One counter per status.
 */
export interface InstallTotalsTable {
  dim: string;
  grain: 'd' | 'm' | 't';
  day: string;
  k1: string;
  k2: string;
  n_installing: number;
  n_validation: number;
  n_configuring: number;
  n_failed: number;
  n_done: number;
  n_success: number;
  n_aborted: number;
  n_unknown: number;
}

export interface OrphanUpdatesTable {
  day: string;
  status: string;
  n: number;
}

/** One row (id 1): the last ingest unit committed; see ingest.journal.ts. */
export interface JournalStateTable {
  id: number;
  unit: number;
}

export interface TelemetryDatabase {
  installs: InstallsTable;
  install_totals: InstallTotalsTable;
  orphan_updates: OrphanUpdatesTable;
  journal_state: JournalStateTable;
}
