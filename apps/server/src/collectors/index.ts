import { createBakCollector } from './bak/bak.collector.js';
import type { CollectorFactory } from './collector.js';
import { createHvCollector } from './hv/hv.collector.js';
import { createMailCollector } from './mail/mail.collector.js';
import type { NodeKind } from './model.js';

export type { ApiCredentials } from './api.client.js';
export { ApiError, type ApiErrorCategory, categorize, isAuthError, isConnectivityError } from './api.errors.js';
export { type ConnectionConfig, normalizeBaseUrl } from './api.factory.js';
export type { EndpointHealth } from './api.failover.js';
export { normalizeFingerprint } from './api.tls.js';
export * from './collector.js';
export * from './model.js';
export type { InstanceHealth, SchedulerHealth } from './poll.health.js';
export * from './poll.manager.js';
export * from './poll.policy.js';

/** Every node kind has a collector: a new kind without one fails to compile. */
export const collectorFactories: Record<NodeKind, CollectorFactory> = {
  hv: createHvCollector,
  bak: createBakCollector,
  mail: createMailCollector,
};
