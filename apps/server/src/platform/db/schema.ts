import type { Generated } from 'kysely';

/**
 * Row types of svc's tables, as Kysely sees them. Every table whose rows belong to an organization
 * carries `org_id` (`default` until organizations are enabled), and every store query filters on it.
 */
export interface SettingsTable {
  org_id: string;
  key: string;
  /** JSON text. */
  value: string;
  updated_at: string;
}

export interface UsersTable {
  username: string;
  org_id: string;
  /** scrypt$N$r$p$salt$hash */
  password_hash: string;
  is_admin: number;
  created_at: number;
  updated_at: number;
}

/** Session and CSRF values are stored only as SHA-256 hex. Times are Unix milliseconds. */
export interface SessionsTable {
  id: string;
  token_hash: string;
  csrf_hash: string;
  org_id: string;
  username: string;
  is_admin: number;
  auth_method: string;
  created_at: number;
  expires_at: number;
  duration_ms: number;
}

export interface ApiTokensTable {
  id: string;
  org_id: string;
  name: string;
  token_hash: string;
  prefix: string;
  suffix: string;
  /** JSON array of scope names. */
  scopes: string;
  is_primary: number;
  created_by: string;
  created_at: number;
  last_used_at: number | null;
}

/** Keyed `user:<name>` or `ip:<address>`: usernames and client addresses are counted separately. */
export interface LoginFailuresTable {
  identifier: string;
  failures: number;
  locked_until: number | null;
  updated_at: number;
}

export interface RecoveryTokensTable {
  token_hash: string;
  created_at: number;
  expires_at: number;
}

export interface AuditEventsTable {
  id: string;
  org_id: string;
  timestamp: number;
  event: string;
  username: string;
  ip: string;
  path: string;
  success: number;
  details: string;
  signature: string;
}

export interface LicenseKeysTable {
  org_id: string;
  sealed_key: string;
  activated_at: number;
}

/** Metrics store (migration 004): a series dictionary and one table per tier; `ts` is Unix seconds. */
export interface MetricSeriesTable {
  id: Generated<number>;
  org_id: string;
  resource_type: string;
  resource_id: string;
  metric: string;
}
export interface MetricRawTable {
  series_id: number;
  ts: number;
  value: number;
}
export interface MetricRollupTable {
  series_id: number;
  ts: number;
  avg: number;
  min: number;
  max: number;
  n: number;
}

export interface Database {
  settings: SettingsTable;
  users: UsersTable;
  sessions: SessionsTable;
  api_tokens: ApiTokensTable;
  login_failures: LoginFailuresTable;
  recovery_tokens: RecoveryTokensTable;
  audit_events: AuditEventsTable;
  license_keys: LicenseKeysTable;
  metric_series: MetricSeriesTable;
  metric_raw: MetricRawTable;
  metric_minute: MetricRollupTable;
  metric_hour: MetricRollupTable;
  metric_day: MetricRollupTable;
  metric_rollup_state: { tier: string; watermark: number };
}

export const DEFAULT_ORG = 'default';
