import type { Clock, Logger } from '@svc/platform';
import type { PollManager } from '../collectors/index.js';
import type { Config } from '../config/index.js';
import type { BuildInfo } from '../platform/build-info.js';
import type { SecretBox } from '../platform/crypto/index.js';
import type { Db } from '../platform/db/index.js';
import type { Timers } from '../platform/jobs/index.js';
import type { MessageType } from '../realtime/index.js';
import type { LiveState } from '../state/index.js';

/** What every area is built from. Dependencies are arguments: nothing reaches for globals. */
export interface AreaDeps {
  config: Config;
  db: Db;
  log: Logger;
  clock: Clock;
  build: BuildInfo;
  /** The OpenAPI document, generated on first use. */
  openapi: () => Record<string, unknown>;
  /** The live resource graph fed by the collectors (nodes, guests, storage, backups...). */
  state: LiveState;
  /** The poll scheduler: one loop per configured hv/bak/mail instance, feeding `state`. */
  polls: PollManager;
  /** Timer source of background work (the delivery worker); tests pass fake timers. */
  timers: Timers;
  /** Sends an event to every live WebSocket client (`/ws`, `/socket.io/`). */
  broadcast: (type: MessageType, data: unknown) => void;
  /** Encrypts secrets at rest under the instance key (`<dataDir>/.encryption.key`). */
  secrets: SecretBox;
  /** PEM of the Ed25519 key licence keys are checked against. */
  licensePublicKey: string;
  /** Asks the service manager to restart svc (set only where one is present). */
  restart?: () => void;
  /** Overrides the licence for checks that depend on the request, not the route (tests set it). */
  hasFeature?: (feature: import('@svc/contract').Feature) => boolean;
}
