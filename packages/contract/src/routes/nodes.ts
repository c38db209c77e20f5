import { z } from 'zod';
import { defineRoute } from '../route.js';

export const nodeTypes = ['hv', 'bak', 'mail'] as const;
const fingerprint = z
  .string()
  .trim()
  .regex(/^([0-9A-Fa-f]{2}:?){31}[0-9A-Fa-f]{2}$/, 'a SHA-256 fingerprint: 32 hex bytes, colons optional');
const host = z
  .string()
  .trim()
  .min(1)
  .max(500)
  .refine((h) => {
    try {
      const u = new URL(/^[a-z]+:\/\//i.test(h) ? h : `https://${h}`);
      return (u.protocol === 'https:' || u.protocol === 'http:') && u.hostname.length > 0 && u.pathname === '/';
    } catch {
      return false;
    }
  }, 'a host name, IP address or https:// URL such as https://10.0.0.5:8006 (no path)');

const monitorFlags = {
  monitorVMs: z.boolean().optional(),
  monitorContainers: z.boolean().optional(),
  monitorStorage: z.boolean().optional(),
  monitorBackups: z.boolean().optional(),
  monitorPhysicalDisks: z.boolean().optional(),
};

const nodeFields = {
  type: z.enum(nodeTypes),
  name: z.string().trim().min(1).max(100),
  host,
  user: z
    .string()
    .trim()
    .regex(/^[^\s@!]+(@[^\s@!]+)?$/, 'user or user@realm')
    .optional(),
  password: z.string().min(1).max(1000).optional(),
  tokenName: z
    .string()
    .trim()
    .regex(/^[^\s@!]+@[^\s@!]+![A-Za-z0-9._-]+$/, 'user@realm!tokenid')
    .optional(),
  tokenValue: z.string().trim().min(1).max(1000).optional(),
  fingerprint: fingerprint.optional(),
  verifySSL: z.boolean().optional(),
  enabled: z.boolean().optional(),
  pollIntervalSeconds: z.number().int().min(10).max(3600).optional(),
  ...monitorFlags,
};

export const nodeInput = z.object(nodeFields).meta({ id: 'NodeInput' });
export const nodeUpdate = z.object(nodeFields).partial().meta({
  id: 'NodeUpdate',
  description: 'Omitted fields keep their value; a secret of only * or • keeps the stored one.',
});
export type NodeInput = z.infer<typeof nodeInput>;
export type NodeUpdate = z.infer<typeof nodeUpdate>;

export const clusterEndpoint = z.object({
  name: z.string(),
  host: z.string(),
  ip: z.string().optional(),
  online: z.boolean(),
});

export const nodeView = z
  .object({
    id: z.string(),
    type: z.enum(nodeTypes),
    name: z.string(),
    host: z.string(),
    user: z.string().optional(),
    tokenName: z.string().optional(),
    hasPassword: z.boolean(),
    hasToken: z.boolean(),
    fingerprint: z.string().optional(),
    verifySSL: z.boolean(),
    enabled: z.boolean(),
    pollIntervalSeconds: z.number().int().optional(),
    monitorVMs: z.boolean(),
    monitorContainers: z.boolean(),
    monitorStorage: z.boolean(),
    monitorBackups: z.boolean(),
    monitorPhysicalDisks: z.boolean(),
    status: z.enum(['connected', 'disconnected', 'dead-letter', 'unknown', 'disabled']),
    lastError: z.string().optional(),
    isCluster: z.boolean(),
    clusterName: z.string().optional(),
    clusterEndpoints: z.array(clusterEndpoint),
    source: z.enum(['manual', 'script', 'import']),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'Node' });
export type NodeView = z.infer<typeof nodeView>;

export const connectionResult = z
  .object({
    success: z.boolean(),
    message: z.string(),
    type: z.enum(nodeTypes),
    version: z.string().optional(),
    isCluster: z.boolean().optional(),
    clusterName: z.string().optional(),
    clusterEndpoints: z.array(clusterEndpoint).optional(),
  })
  .meta({ id: 'ConnectionResult' });

const idParams = z.object({ id: z.string().regex(/^[a-z]+-[0-9a-f]{8,32}$/, 'a node id such as hv-1a2b3c4d') });
const write = { access: 'auth', scopes: ['settings:write'], tag: 'Nodes' } as const;

export const nodeRoutes = {
  listNodes: defineRoute({
    method: 'GET',
    path: '/api/config/nodes',
    summary: 'Configured hv, bak and mail instances (secrets are never returned)',
    tag: 'Nodes',
    access: 'auth',
    scopes: ['settings:read'],
    response: z.array(nodeView),
  }),
  addNode: defineRoute({
    ...write,
    method: 'POST',
    path: '/api/config/nodes',
    summary: 'Add an instance; it is polled at once, no restart needed',
    body: nodeInput,
    response: nodeView,
    status: 201,
  }),
  testNodeConnection: defineRoute({
    ...write,
    method: 'POST',
    path: '/api/config/nodes/test-connection',
    summary: 'Connect with the given settings (nothing is saved) and report version and cluster',
    body: nodeInput,
    response: connectionResult,
  }),
  testNodeConfig: defineRoute({
    ...write,
    method: 'POST',
    path: '/api/config/nodes/test-config',
    summary: 'Validate instance settings without connecting or saving',
    body: nodeInput,
    response: z.object({ valid: z.boolean(), warnings: z.array(z.string()) }),
  }),
  updateNode: defineRoute({
    ...write,
    method: 'PUT',
    path: '/api/config/nodes/{id}',
    summary: 'Change an instance; takes effect at once',
    params: idParams,
    body: nodeUpdate,
    response: nodeView,
  }),
  deleteNode: defineRoute({
    ...write,
    method: 'DELETE',
    path: '/api/config/nodes/{id}',
    summary: 'Remove an instance and stop polling it',
    params: idParams,
    responseKind: 'empty',
  }),
  testSavedNode: defineRoute({
    ...write,
    method: 'POST',
    path: '/api/config/nodes/{id}/test',
    summary: 'Test the connection of a saved instance (legacy)',
    params: idParams,
    response: connectionResult,
    deprecated: true,
  }),
  refreshNodeCluster: defineRoute({
    ...write,
    method: 'POST',
    path: '/api/config/nodes/{id}/refresh-cluster',
    summary: 'Re-read the cluster members of a saved hv instance',
    params: idParams,
    response: nodeView,
  }),
} as const;
