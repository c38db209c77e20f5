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

export interface Database {
  settings: SettingsTable;
}

export const DEFAULT_ORG = 'default';
