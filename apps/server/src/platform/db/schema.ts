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

export interface NodesTable {
  org_id: string;
  id: string;
  type: string;
  name: string;
  /** JSON of the non-secret settings. */
  config: string;
  /** Sealed JSON of password / token secret (SecretBox, purpose `node:<id>`). */
  secrets: string;
  source: string;
  created_at: string;
  updated_at: string;
}

export interface SetupTokensTable {
  org_id: string;
  token_hash: string;
  node_type: string;
  expires_at: number;
  used_at: number | null;
  created_by: string;
}

/** Notifications (migration 006). Times are Unix milliseconds; secrets only inside `sealed_*` / sealed JSON. */
export interface NotificationWebhooksTable {
  id: string;
  org_id: string;
  name: string;
  url: string;
  method: string;
  service: string;
  enabled: number;
  template: string;
  mention: string;
  /** SecretBox-sealed JSON {headers, customFields, signingSecret}. */
  sealed_secrets: string;
  created_at: number;
  updated_at: number;
}
export interface NotificationConfigTable {
  org_id: string;
  key: string;
  /** JSON; secret members are sealed strings. */
  value: string;
  updated_at: number;
}
/** One row per notice x channel: pending, sending, sent, failed, dlq. */
export interface NotificationQueueTable {
  id: string;
  org_id: string;
  event_id: string;
  event: string;
  alert_id: string;
  channel: string;
  channel_id: string;
  /** JSON of the notice (no channel secrets). */
  notice: string;
  group_id: string | null;
  status: string;
  attempts: number;
  max_attempts: number;
  next_attempt_at: number;
  last_error: string;
  last_status_code: number;
  created_at: number;
  updated_at: number;
}
export interface NotificationAttemptsTable {
  id: string;
  org_id: string;
  at: number;
  channel: string;
  channel_id: string;
  name: string;
  event_id: string;
  event: string;
  alert_id: string;
  attempt: number;
  status_code: number;
  duration_ms: number;
  success: number;
  error: string;
}
export interface NotificationHealthTable {
  org_id: string;
  channel: string;
  channel_id: string;
  last_success_at: number | null;
  last_error_at: number | null;
  last_error: string | null;
  consecutive_failures: number;
}

/** Manual merge overrides of unified resources (migration 006); a and b are `source:sourceId`, a < b. */
export interface ResourceOverridesTable {
  org_id: string;
  kind: string;
  a: string;
  b: string;
  reason: string;
  created_by: string;
  created_at: number;
}

/** Notes, tags (JSON array) and custom URLs (JSON array of {name, url}) per metadata kind and item. */
export interface ResourceMetadataTable {
  org_id: string;
  kind: string;
  item_id: string;
  notes: string;
  tags: string;
  custom_urls: string;
  updated_by: string;
  updated_at: number;
}

/** Alert engine (migration 008). Times are Unix milliseconds; `data` columns hold JSON. */
export interface AlertStatesTable {
  org_id: string;
  id: string;
  /** `active`, or `idle` for a key that is not firing but still tracked (flapping window). */
  status: string;
  start_time: number;
  updated_at: number;
  data: string;
}
export interface AlertHistoryTable {
  org_id: string;
  alert_id: string;
  start_time: number;
  level: string;
  resource_id: string;
  resolved_time: number | null;
  data: string;
}
export interface AlertIncidentsTable {
  org_id: string;
  id: string;
  alert_id: string;
  start_time: number;
  resource_id: string;
  status: string;
  data: string;
}
/** The notice outbox: written with the state change, handed to the notification side after commit. */
export interface AlertNoticesTable {
  seq: Generated<number>;
  org_id: string;
  alert_id: string;
  event: string;
  at: number;
  due_at: number;
  handed_at: number | null;
  alert: string;
}

/** Channels queued an announcement of one alert occurrence (migration 009): where its recovery goes. */
export interface NotificationReceiptsTable {
  org_id: string;
  alert_id: string;
  start_ms: number;
  channel: string;
  channel_id: string;
  event_id: string;
  at: number;
}

export interface Database {
  nodes: NodesTable;
  setup_tokens: SetupTokensTable;
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
  resource_overrides: ResourceOverridesTable;
  resource_metadata: ResourceMetadataTable;
  notification_webhooks: NotificationWebhooksTable;
  notification_config: NotificationConfigTable;
  notification_queue: NotificationQueueTable;
  notification_attempts: NotificationAttemptsTable;
  notification_health: NotificationHealthTable;
  alert_states: AlertStatesTable;
  alert_history: AlertHistoryTable;
  alert_incidents: AlertIncidentsTable;
  alert_notices: AlertNoticesTable;
  notification_receipts: NotificationReceiptsTable;
}

export const DEFAULT_ORG = 'default';
