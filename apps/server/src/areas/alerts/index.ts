import { DEFAULT_ORG } from '../../platform/db/index.js';
import type { AreaDeps } from '../area.js';
import type { AuditArea } from '../audit/index.js';
import { createMemorySink, type NoticeSink } from './alerts.notices.js';
import { alertsHandlers } from './alerts.routes.js';
import { createAlertRunner } from './alerts.runner.js';
import { createAlertsService } from './alerts.service.js';
import { createAlertsStore } from './alerts.store.js';

export { defaultAlertConfig } from './alerts.config.js';
export type { AlertNotice, NoticeEvent, NoticeSink } from './alerts.notices.js';
export { createMemorySink } from './alerts.notices.js';

export interface AlertsAreaOptions {
  /** Where notices go; the notification area's sink in production. Default: kept in memory. */
  sink?: NoticeSink;
}

/** How often `tick` should run (time thresholds, ages, reminders, escalation, deferred notices). */
export const ALERTS_TICK_MS = 10_000;

/**
 * The alert engine and its API. Evaluation follows the live state's deltas; `tick` (a scheduler job, or a
 * test driving a fake clock) does the time-based work. Notices leave through the outbox to `sink`.
 */
export function createAlertsArea(deps: AreaDeps, audit: Pick<AuditArea, 'record'>, opts: AlertsAreaOptions = {}) {
  const sink = opts.sink ?? createMemorySink();
  const store = createAlertsStore(deps.db, DEFAULT_ORG);
  const service = createAlertsService({ store, audit, now: () => deps.clock.now(), runner: () => runner });
  const runner = createAlertRunner({
    clock: deps.clock,
    log: deps.log,
    state: deps.state,
    store,
    sink,
    config: service.getConfig,
  });
  return {
    service,
    sink,
    handlers: alertsHandlers(service),
    async start(): Promise<void> {
      await service.load();
      await runner.start();
    },
    stop: runner.stop,
    tick: runner.tick,
    idle: runner.idle,
    /** Alert configuration for the notification side (cooldown, grouping, quiet hours are read from here). */
    config: service.getConfig,
    jobs: [{ name: 'alerts-tick', intervalMs: ALERTS_TICK_MS, run: () => runner.tick() }] as const,
  };
}

export type AlertsArea = ReturnType<typeof createAlertsArea>;
