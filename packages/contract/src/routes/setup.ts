import { z } from 'zod';
import { defineRoute } from '../route.js';

const setupToken = z.string().regex(/^[A-Za-z0-9_-]{20,200}$/, 'the setup token from /api/setup-script-url');

export const discoveredEndpoint = z.object({
  host: z.string(),
  port: z.number().int(),
  url: z.string(),
  type: z.enum(['hv', 'bak', 'mail']),
  version: z.string().nullable().describe('Only known when the API reveals it without credentials'),
});

export const setupRoutes = {
  exportConfig: defineRoute({
    method: 'POST',
    path: '/api/config/export',
    summary: 'Export nodes and settings as a bundle encrypted with a passphrase (PBKDF2-SHA256 + AES-256-GCM)',
    tag: 'Nodes',
    access: 'admin',
    scopes: ['settings:read'],
    rateLimit: 'export',
    body: z.object({ passphrase: z.string().min(12, 'at least 12 characters').max(1024) }),
    response: z.object({ status: z.literal('success'), data: z.string() }),
  }),
  importConfig: defineRoute({
    method: 'POST',
    path: '/api/config/import',
    summary: 'Replace nodes and settings with an exported bundle; a wrong passphrase changes nothing',
    tag: 'Nodes',
    access: 'admin',
    scopes: ['settings:write'],
    rateLimit: 'export',
    body: z.object({ data: z.string().min(1).max(900_000), passphrase: z.string().min(1).max(1024) }),
    response: z.object({ status: z.literal('success'), message: z.string(), nodes: z.number().int() }),
  }),
  createSetupScriptUrl: defineRoute({
    method: 'POST',
    path: '/api/setup-script-url',
    summary: 'A one-time setup token (15 minutes) and the URL of the node setup script',
    tag: 'Nodes',
    access: 'auth',
    scopes: ['settings:write'],
    body: z.object({
      type: z.enum(['hv', 'bak']).default('hv'),
      host: z.string().trim().max(500).optional().describe('The address svc should use for the node'),
    }),
    response: z.object({ token: z.string(), url: z.string(), command: z.string(), expires: z.string() }),
  }),
  getSetupScript: defineRoute({
    method: 'GET',
    path: '/api/setup-script',
    summary: 'The bash script that creates a read-only API token on a node and registers it with svc',
    tag: 'Nodes',
    access: 'public',
    query: z.object({ auth_token: setupToken, host: z.string().trim().max(500).optional() }),
    responseKind: 'text',
  }),
  autoRegister: defineRoute({
    method: 'POST',
    path: '/api/auto-register',
    summary: 'Register a node with a one-time setup token (used by the setup script)',
    tag: 'Nodes',
    access: 'public',
    csrfExempt: true,
    rateLimit: 'auth',
    body: z.object({
      type: z.enum(['hv', 'bak']),
      host: z.string().trim().min(1).max(500),
      name: z.string().trim().min(1).max(100).optional(),
      tokenName: z
        .string()
        .trim()
        .regex(/^[^\s@!]+@[^\s@!]+![A-Za-z0-9._-]+$/, 'user@realm!tokenid'),
      tokenValue: z.string().trim().min(1).max(1000),
      fingerprint: z.string().trim().max(200).optional(),
      setupToken: setupToken.optional(),
    }),
    response: z.object({ success: z.literal(true), nodeId: z.string(), message: z.string() }),
    status: 201,
  }),
  discoverNodes: defineRoute({
    method: 'GET',
    path: '/api/discover',
    summary: 'Scan a subnet for hv, bak and mail APIs (bounded in size, time and concurrency)',
    tag: 'Nodes',
    access: 'auth',
    scopes: ['settings:write'],
    query: z.object({
      subnet: z
        .string()
        .regex(/^\d{1,3}(\.\d{1,3}){3}\/(2[2-9]|3[0-2])$/, 'an IPv4 CIDR from /22 to /32, such as 192.168.1.0/24')
        .optional(),
      ports: z
        .string()
        .regex(/^\d{1,5}(,\d{1,5}){0,7}$/, 'up to 8 comma-separated ports')
        .optional(),
    }),
    response: z.object({
      subnet: z.string(),
      scanned: z.number().int(),
      durationMs: z.number().int(),
      found: z.array(discoveredEndpoint),
    }),
  }),
} as const;
