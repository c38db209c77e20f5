import type { health, publicConfig, serverInfo, version } from '@svc/contract';
import type { z } from 'zod';
import { DEFAULT_ORG } from '../../platform/db/index.js';
import type { Caller } from '../../platform/http/principal.js';
import type { AreaDeps } from '../area.js';
import type { SystemStore } from './system.store.js';

/** How long a database check result is reused by /api/health, so probes under load cost nothing. */
const DB_CHECK_TTL_MS = 2000;

export function createSystemService(deps: AreaDeps, store: SystemStore, isMockMode: () => boolean = () => false) {
  const startedAt = deps.clock.now();
  let dbCheck = { at: Number.NEGATIVE_INFINITY, ok: false };

  async function databaseHealthy(): Promise<boolean> {
    const now = deps.clock.now();
    if (now - dbCheck.at < DB_CHECK_TTL_MS) return dbCheck.ok;
    const ok = await store.ping().catch((err: unknown) => {
      deps.log.error({ err }, 'database health check failed');
      return false;
    });
    dbCheck = { at: now, ok };
    return ok;
  }

  return {
    async getHealth(): Promise<{ healthy: boolean; body: z.input<typeof health> }> {
      const now = deps.clock.now();
      const database = await databaseHealthy();
      return {
        healthy: database,
        body: {
          status: database ? 'healthy' : 'unhealthy',
          timestamp: Math.floor(now / 1000),
          uptime: Math.floor((now - startedAt) / 1000),
          devModeSSH: deps.config.devModeSSH,
          dependencies: { database },
          mockMode: isMockMode(),
        },
      };
    },

    getVersion(): z.input<typeof version> {
      return {
        version: deps.build.version,
        buildTime: deps.build.buildTime,
        channel: 'stable',
        deploymentType: deps.config.deploymentType,
        // No release feed is consulted yet: the running version is the latest known one.
        updateAvailable: false,
        latestVersion: deps.build.version,
        runtime: process.version,
        containerized: deps.config.containerized,
      };
    },

    async getConfig(caller: Caller): Promise<z.input<typeof publicConfig>> {
      const org = caller?.orgId ?? DEFAULT_ORG;
      return {
        updateChannel: (await store.readSetting<'stable' | 'rc'>(org, 'updates.channel')) ?? 'stable',
        autoUpdateEnabled: (await store.readSetting<boolean>(org, 'updates.autoUpdate')) ?? false,
      };
    },

    getServerInfo(): z.input<typeof serverInfo> {
      return {
        version: deps.build.version,
        publicUrl: deps.config.publicUrl ?? null,
        deploymentType: deps.config.deploymentType,
        database: deps.db.dialect,
      };
    },
  };
}

export type SystemService = ReturnType<typeof createSystemService>;
