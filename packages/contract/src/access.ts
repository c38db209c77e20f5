/** Token scopes named by the spec, plus `*` (every scope). */
export const scopes = [
  '*',
  'monitoring:read',
  'monitoring:write',
  'settings:read',
  'settings:write',
  'host-agent:config:read',
  'host-agent:manage',
  'host-agent:report',
  'ctr:report',
  'ctr:manage',
  'orch:manage',
] as const;
export type Scope = (typeof scopes)[number];

/** Licence features a route can require; a route naming one answers 402 without it. */
export const features = [
  'long_term_metrics',
  'rbac',
  'audit_logging',
  'multi_tenant',
  'kubernetes_ai',
  'ai_patrol',
  'ai_alerts',
  'ai_autofix',
  'agent_profiles',
  'advanced_reporting',
  'advanced_sso',
  'sso',
  'update_alerts',
  'relay',
  'unlimited',
  'multi_user',
  'white_label',
] as const;
export type Feature = (typeof features)[number];

/**
 * Who may call a route. `public`: anyone. `auth`: any valid credential (a token must also hold one of the
 * route's scopes, if it names any). `admin`: the administrator's session, or a token holding one of the
 * route's scopes (or `*`).
 */
export type Access = 'public' | 'auth' | 'admin';

/** Rate-limit classes; the numbers per class are server configuration. */
export type RateClass = 'auth' | 'recovery' | 'export' | 'default';
