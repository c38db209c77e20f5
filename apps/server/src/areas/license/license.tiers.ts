import type { LicenseTier } from '@svc/contract';

const community = ['update_alerts', 'sso', 'advanced_sso', 'ai_patrol'];
const pro = [
  ...community,
  'relay',
  'long_term_metrics',
  'ai_alerts',
  'ai_autofix',
  'kubernetes_ai',
  'agent_profiles',
  'rbac',
  'audit_logging',
  'advanced_reporting',
];
const msp = [...pro, 'unlimited', 'multi_tenant'];

/** Features each tier grants; a key's own `features` claim adds to these. */
export const tierFeatures: Record<LicenseTier, readonly string[]> = {
  community,
  pro,
  cloud: pro,
  msp,
  enterprise: [...msp, 'multi_user', 'white_label'],
};

export const GRACE_DAYS = 7;
export const UPGRADE_URL = 'https://svc.example.org/pricing';
