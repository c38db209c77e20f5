import { z } from 'zod';
import { type Scope, scopes } from '../access.js';
import { defineRoute } from '../route.js';
import { deploymentTypes } from './system.js';

const scopeName = z
  .string()
  .refine((s) => (scopes as readonly string[]).includes(s), {
    error: (issue) => `unknown scope ${JSON.stringify(issue.input)}; known scopes: ${scopes.join(', ')}`,
  })
  .transform((s) => s as Scope);

export const apiTokenRecord = z
  .object({
    id: z.string(),
    name: z.string(),
    scopes: z.array(z.enum(scopes)),
    prefix: z.string().describe('First characters of the token, to recognise it'),
    suffix: z.string().describe('Last characters of the token'),
    createdAt: z.string(),
    lastUsedAt: z.string().nullable(),
  })
  .meta({ id: 'ApiToken' });

export const securityStatus = z
  .object({
    hasAuthentication: z.boolean().describe('An administrator has been configured'),
    setupRequired: z.boolean().describe('First-run setup is pending (a bootstrap token exists)'),
    authDisabled: z.boolean().describe('Recovery mode: authentication is off for loopback callers'),
    recoveryMode: z.boolean(),
    oidcEnabled: z.boolean(),
    authenticated: z.boolean(),
    username: z.string().optional(),
    authMethod: z.enum(['session', 'token', 'recovery']).optional(),
    isAdmin: z.boolean().optional(),
    apiTokenCount: z.number().int().optional(),
    secureCookies: z.boolean().optional(),
    proxyAuthEnabled: z.boolean().optional(),
    deploymentType: z.enum(deploymentTypes).optional(),
  })
  .meta({ id: 'SecurityStatus' });

export const oidcSettings = z
  .object({
    enabled: z.boolean(),
    issuerUrl: z.string(),
    clientId: z.string(),
    clientSecretSet: z.boolean().describe('The secret is write-only; this says whether one is stored'),
    redirectUrl: z.string(),
    scopes: z.array(z.string()),
    usernameClaim: z.string(),
    groupsClaim: z.string(),
    allowedGroups: z.array(z.string()).describe('Empty: every user the provider authenticates may log in'),
    adminGroups: z.array(z.string()).describe('Members of these groups get administrator rights'),
  })
  .meta({ id: 'OidcSettings' });

const httpUrl = z.url({ protocol: /^https?$/ });

export const oidcSettingsInput = z
  .object({
    enabled: z.boolean(),
    issuerUrl: z.union([httpUrl, z.literal('')]),
    clientId: z.string().max(512),
    clientSecret: z.string().max(4096).optional().describe('Omit to keep the stored secret'),
    redirectUrl: z.union([httpUrl, z.literal('')]).default(''),
    scopes: z.array(z.string().regex(/^[\x21-\x7e]+$/)).default(['openid', 'profile', 'email']),
    usernameClaim: z.string().min(1).default('preferred_username'),
    groupsClaim: z.string().min(1).default('groups'),
    allowedGroups: z.array(z.string().min(1)).default([]),
    adminGroups: z.array(z.string().min(1)).default([]),
  })
  .refine((v) => !v.enabled || (v.issuerUrl !== '' && v.clientId !== ''), {
    error: 'issuerUrl and clientId are required when enabled is true',
    path: ['issuerUrl'],
  })
  .meta({ id: 'OidcSettingsInput' });

export const quickSetupBody = z
  .object({
    username: z
      .string()
      .min(1)
      .max(128)
      .regex(/^[^\s:]+$/, 'no spaces or colons'),
    password: z.string().min(12, 'at least 12 characters').max(1024),
    apiToken: z.string().min(16, 'at least 16 characters').max(256).optional(),
    enableNotifications: z.boolean().default(false),
    darkMode: z.boolean().default(false),
    force: z.boolean().default(false),
    setupToken: z.string().max(256).optional(),
  })
  .meta({ id: 'QuickSetupRequest' });

const ok = z.object({ success: z.literal(true), message: z.string() });

export const securityRoutes = {
  getSecurityStatus: defineRoute({
    method: 'GET',
    path: '/api/security/status',
    summary: 'Security posture; minimal without credentials, more detail when authenticated',
    tag: 'Security',
    access: 'public',
    response: securityStatus,
  }),
  changePassword: defineRoute({
    method: 'POST',
    path: '/api/security/change-password',
    summary: "Change the administrator's password (needs the current one)",
    tag: 'Security',
    access: 'auth',
    scopes: ['settings:write'],
    rateLimit: 'auth',
    body: z.object({ currentPassword: z.string().min(1), newPassword: z.string().min(12, 'at least 12 characters') }),
    response: ok,
  }),
  listApiTokens: defineRoute({
    method: 'GET',
    path: '/api/security/tokens',
    summary: 'API tokens (never the raw values)',
    tag: 'Security',
    access: 'auth',
    scopes: ['settings:read'],
    response: z.object({ tokens: z.array(apiTokenRecord) }),
  }),
  createApiToken: defineRoute({
    method: 'POST',
    path: '/api/security/tokens',
    summary: 'Create an API token; the raw token is in this response only',
    tag: 'Security',
    access: 'auth',
    scopes: ['settings:write'],
    status: 201,
    body: z
      .object({ name: z.string().trim().min(1).max(128), scopes: z.array(scopeName).min(1) })
      .meta({ id: 'CreateTokenRequest' }),
    response: z.object({ token: z.string(), record: apiTokenRecord }),
  }),
  revokeApiToken: defineRoute({
    method: 'DELETE',
    path: '/api/security/tokens/{id}',
    summary: 'Revoke an API token',
    tag: 'Security',
    access: 'auth',
    scopes: ['settings:write'],
    params: z.object({ id: z.string().min(1).max(64) }),
    responseKind: 'empty',
  }),
  getRecoveryStatus: defineRoute({
    method: 'GET',
    path: '/api/security/recovery',
    summary: 'Whether recovery mode is active (loopback or X-Recovery-Token only)',
    tag: 'Security',
    access: 'public',
    response: z.object({ recovery_mode: z.boolean(), message: z.string() }),
  }),
  recoveryAction: defineRoute({
    method: 'POST',
    path: '/api/security/recovery',
    summary: 'generate_token (loopback only), disable_auth or enable_auth (loopback or X-Recovery-Token)',
    tag: 'Security',
    access: 'public',
    rateLimit: 'recovery',
    body: z.object({ action: z.enum(['generate_token', 'disable_auth', 'enable_auth']) }),
    response: z.object({
      success: z.literal(true),
      message: z.string(),
      token: z.string().optional(),
      expires_in_minutes: z.number().int().optional(),
      recovery_mode: z.boolean(),
    }),
  }),
  resetLockout: defineRoute({
    method: 'POST',
    path: '/api/security/reset-lockout',
    summary: 'Clear the login lockout of a username or an IP address',
    tag: 'Security',
    access: 'admin',
    scopes: ['settings:write'],
    body: z.object({ identifier: z.string().trim().min(1).max(256) }),
    response: ok,
  }),
  regenerateToken: defineRoute({
    method: 'POST',
    path: '/api/security/regenerate-token',
    summary: 'Replace the primary full-access API token; the new raw token is in this response only',
    tag: 'Security',
    access: 'admin',
    scopes: ['settings:write'],
    rateLimit: 'auth',
    response: z
      .object({
        success: z.boolean(),
        token: z.string(),
        deploymentType: z.enum(deploymentTypes),
        requiresRestart: z.boolean(),
        message: z.string(),
      })
      .meta({ id: 'RegenerateTokenResult' }),
  }),
  validateToken: defineRoute({
    method: 'POST',
    path: '/api/security/validate-token',
    summary: 'Check whether a string is a valid API token',
    tag: 'Security',
    access: 'admin',
    scopes: ['settings:read'],
    rateLimit: 'auth',
    body: z.object({ token: z.string().min(1).max(512) }),
    response: z.object({ valid: z.boolean(), message: z.string() }),
  }),
  validateBootstrapToken: defineRoute({
    method: 'POST',
    path: '/api/security/validate-bootstrap-token',
    summary: 'Check the first-run bootstrap token (header X-Setup-Token or body token): 204 valid, 401 not',
    tag: 'Security',
    access: 'public',
    rateLimit: 'auth',
    csrfExempt: true,
    body: z.object({ token: z.string().max(256).optional() }),
    responseKind: 'empty',
  }),
  quickSetup: defineRoute({
    method: 'POST',
    path: '/api/security/quick-setup',
    summary: 'First-run setup: create the administrator (bootstrap token, or an admin session with force)',
    tag: 'Security',
    access: 'public',
    rateLimit: 'auth',
    body: quickSetupBody,
    response: z.object({ success: z.literal(true), skipped: z.boolean(), message: z.string() }),
  }),
  applyRestart: defineRoute({
    method: 'POST',
    path: '/api/security/apply-restart',
    summary: 'Restart svc under its service manager (systemd); elsewhere 409 with what to do',
    tag: 'Security',
    access: 'auth',
    scopes: ['settings:write'],
    status: 202,
    response: ok,
  }),
  getOidcSettings: defineRoute({
    method: 'GET',
    path: '/api/security/oidc',
    summary: 'OIDC single sign-on settings (the client secret is never returned)',
    tag: 'Security',
    access: 'admin',
    scopes: ['settings:read'],
    response: oidcSettings,
  }),
  setOidcSettings: defineRoute({
    method: 'POST',
    path: '/api/security/oidc',
    summary: 'Set OIDC single sign-on settings (the client secret is stored encrypted)',
    tag: 'Security',
    access: 'admin',
    scopes: ['settings:write'],
    body: oidcSettingsInput,
    response: oidcSettings,
  }),
  oidcLogin: defineRoute({
    method: 'GET',
    path: '/api/oidc/login',
    summary: 'Start OIDC single sign-on (redirects to the provider)',
    tag: 'Security',
    access: 'public',
    rateLimit: 'auth',
    query: z.object({
      returnTo: z
        .string()
        .regex(/^\/[^/\\]/)
        .max(512)
        .optional(),
    }),
    responseKind: 'html',
  }),
  oidcCallback: defineRoute({
    method: 'GET',
    path: '/api/oidc/callback',
    summary: "The provider's redirect back to svc: creates a session or shows why login was refused",
    tag: 'Security',
    access: 'public',
    rateLimit: 'auth',
    query: z.looseObject({ state: z.string().max(512).optional(), code: z.string().max(4096).optional() }),
    responseKind: 'html',
  }),
} as const;
