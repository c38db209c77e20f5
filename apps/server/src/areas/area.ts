import type { Clock, Logger } from '@svc/platform';
import type { Config } from '../config/index.js';
import type { BuildInfo } from '../platform/build-info.js';
import type { Db } from '../platform/db/index.js';

/** What every area is built from. Dependencies are arguments: nothing reaches for globals. */
export interface AreaDeps {
  config: Config;
  db: Db;
  log: Logger;
  clock: Clock;
  build: BuildInfo;
  openapi: Record<string, unknown>;
}
