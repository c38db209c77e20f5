import { z } from 'zod';
import { defineRoute } from '../route.js';

export const licenseTiers = ['community', 'pro', 'cloud', 'msp', 'enterprise'] as const;
export type LicenseTier = (typeof licenseTiers)[number];

export const licenseStatus = z
  .object({
    valid: z.boolean().describe('A licence is active (or within its grace period)'),
    state: z.enum(['none', 'active', 'grace', 'expired']),
    tier: z.enum(licenseTiers),
    licenseId: z.string().nullable(),
    email: z.string().nullable(),
    expires_at: z.string().nullable().describe('ISO 8601; null for a lifetime licence or none'),
    is_lifetime: z.boolean(),
    days_remaining: z.number().int(),
    features: z.array(z.string()),
    max_nodes: z.number().int().nullable(),
    max_guests: z.number().int().nullable(),
    in_grace_period: z.boolean(),
    grace_period_end: z.string().nullable(),
  })
  .meta({ id: 'LicenseStatus' });

export const licenseFeatures = z
  .object({
    license_status: z.enum(['none', 'active', 'grace', 'expired']),
    tier: z.enum(licenseTiers),
    features: z.record(z.string(), z.boolean()),
    upgrade_url: z.string(),
  })
  .meta({ id: 'LicenseFeatures' });

export const licenseRoutes = {
  getLicenseStatus: defineRoute({
    method: 'GET',
    path: '/api/license/status',
    summary: 'The active licence: tier, features, expiry and grace period',
    tag: 'License',
    access: 'admin',
    scopes: ['settings:read'],
    response: licenseStatus,
  }),
  getLicenseFeatures: defineRoute({
    method: 'GET',
    path: '/api/license/features',
    summary: 'Which licence features are available to this installation',
    tag: 'License',
    access: 'auth',
    response: licenseFeatures,
  }),
  activateLicense: defineRoute({
    method: 'POST',
    path: '/api/license/activate',
    summary: 'Activate a signed licence key (malformed, wrongly signed or expired keys answer 400 with the reason)',
    tag: 'License',
    access: 'admin',
    scopes: ['settings:write'],
    body: z.object({ license_key: z.string().min(1).max(8192) }).meta({ id: 'LicenseActivateRequest' }),
    response: z.object({ success: z.literal(true), message: z.string(), status: licenseStatus }),
  }),
  clearLicense: defineRoute({
    method: 'POST',
    path: '/api/license/clear',
    summary: 'Remove the licence; the installation falls back to Community features',
    tag: 'License',
    access: 'admin',
    scopes: ['settings:write'],
    response: z.object({ success: z.literal(true), status: licenseStatus }),
  }),
} as const;
