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

  /** A fresh cached verdict is answered synchronously: probes under load skip the promise machinery too. */
  function databaseHealthy(now: number): boolean | Promise<boolean> {
    if (now - dbCheck.at < DB_CHECK_TTL_MS) return dbCheck.ok;
    return store
      .ping()
      .catch((err: unknown) => {
        deps.log.error({ err }, 'database health check failed');
        return false;
      })
      .then((ok) => {
        dbCheck = { at: now, ok };
        return ok;
      });
  }

  function healthBody(now: number, database: boolean): { healthy: boolean; body: z.input<typeof health> } {
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
  }

  return {
    getHealth():
      | { healthy: boolean; body: z.input<typeof health> }
      | Promise<{ healthy: boolean; body: z.input<typeof health> }> {
      const now = deps.clock.now();
      const database = databaseHealthy(now);
      return typeof database === 'boolean' ? healthBody(now, database) : database.then((ok) => healthBody(now, ok));
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
