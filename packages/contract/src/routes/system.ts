import { z } from 'zod';
import { defineRoute } from '../route.js';

const semver = z.string().regex(/^\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.-]+)?$/, 'a semantic version without a leading v');

export const deploymentTypes = ['systemd', 'docker', 'development', 'binary'] as const;
export type DeploymentType = (typeof deploymentTypes)[number];
export const updateChannels = ['stable', 'rc'] as const;

export const health = z
  .object({
    status: z.enum(['healthy', 'unhealthy']),
    timestamp: z.number().int().describe('Unix time, seconds'),
    uptime: z.number().int().describe('Seconds since the server started'),
    devModeSSH: z.boolean(),
    dependencies: z.object({ database: z.boolean() }),
    mockMode: z.boolean().describe('True while a simulated estate is shown instead of the real one'),
  })
  .meta({ id: 'Health' });

export const version = z
  .object({
    version: semver,
    buildTime: z.string().describe('ISO 8601 UTC'),
    channel: z.enum(updateChannels),
    deploymentType: z.enum(deploymentTypes),
    updateAvailable: z.boolean(),
    latestVersion: semver,
    runtime: z.string().describe('The Node.js version running svc'),
    containerized: z.boolean(),
  })
  .meta({ id: 'Version' });

export const publicConfig = z
  .object({
    updateChannel: z.enum(updateChannels),
    autoUpdateEnabled: z.boolean(),
  })
  .meta({ id: 'PublicConfig' });

export const serverInfo = z
  .object({
    version: semver,
    publicUrl: z.string().nullable().describe('SVC_PUBLIC_URL when set'),
    deploymentType: z.enum(deploymentTypes),
    database: z.enum(['sqlite', 'postgres']),
  })
  .meta({ id: 'ServerInfo' });

export const systemRoutes = {
  getHealth: defineRoute({
    method: 'GET',
    path: '/api/health',
    summary: 'Service health (200 healthy, 503 unhealthy)',
    tag: 'System',
    access: 'public',
    response: health,
  }),
  getVersion: defineRoute({
    method: 'GET',
    path: '/api/version',
    summary: 'Running version, build time, update channel and deployment type',
    tag: 'System',
    access: 'public',
    response: version,
  }),
  getAgentVersion: defineRoute({
    method: 'GET',
    path: '/api/agent/version',
    summary: 'The server version, which agents compare with their own to decide on updates',
    tag: 'System',
    access: 'public',
    response: z.object({ version: semver }).meta({ id: 'AgentVersion' }),
  }),
  getConfig: defineRoute({
    method: 'GET',
    path: '/api/config',
    summary: 'Public configuration: update channel and whether automatic updates are on',
    tag: 'System',
    access: 'auth',
    response: publicConfig,
  }),
  getServerInfo: defineRoute({
    method: 'GET',
    path: '/api/server/info',
    summary: 'Minimal server facts for installers',
    tag: 'System',
    access: 'auth',
    response: serverInfo,
  }),
  getOpenApi: defineRoute({
    method: 'GET',
    path: '/api/openapi.json',
    summary: 'This API as an OpenAPI 3.1 document',
    tag: 'System',
    access: 'public',
    response: z.record(z.string(), z.unknown()),
  }),
  getApiDocs: defineRoute({
    method: 'GET',
    path: '/api/docs',
    summary: 'Interactive API reference (HTML)',
    tag: 'System',
    access: 'public',
    responseKind: 'html',
  }),
  getApiDocsAsset: defineRoute({
    method: 'GET',
    path: '/api/docs/{asset}',
    summary: 'Static files of the interactive API reference',
    tag: 'System',
    access: 'public',
    params: z.object({ asset: z.string().regex(/^[A-Za-z0-9._-]+$/) }),
    responseKind: 'binary',
  }),
} as const;
