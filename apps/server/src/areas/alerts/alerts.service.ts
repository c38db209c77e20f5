import type { AlertConfig, AlertConfigPatch, AlertRecord, Incident, ResolvedAlert } from '@svc/contract';
import { alertConfig } from '@svc/contract';
import { AppError, notFound } from '@svc/platform';
import type { Actor, AuditArea } from '../audit/index.js';
import { checkConfig, defaultAlertConfig, mergeConfig } from './alerts.config.js';
import { iso } from './alerts.model.js';
import type { AlertRunner } from './alerts.runner.js';
import type { AlertsStore, HistoryFilter } from './alerts.store.js';
import { acknowledge, announceActive, clear, unacknowledge } from './alerts.timed.js';

export type AlertAction = 'acknowledge' | 'unacknowledge' | 'clear';
const actions = { acknowledge, unacknowledge, clear } as const;
const HISTORY_CAP = 10_000;

/** Critical first, then oldest first, then node and id (A.1). */
function byPriority(a: AlertRecord, b: AlertRecord): number {
  const lv = (x: AlertRecord) => (x.level === 'critical' ? 0 : 1);
  return (
    lv(a) - lv(b) || a.startTime.localeCompare(b.startTime) || a.node.localeCompare(b.node) || a.id.localeCompare(b.id)
  );
}

export function createAlertsService(deps: {
  store: AlertsStore;
  runner: () => AlertRunner;
  audit: Pick<AuditArea, 'record'>;
  now: () => number;
}) {
  const { store, audit } = deps;
  let config: AlertConfig = defaultAlertConfig();

  async function saveConfig(next: AlertConfig, actor: Actor, event: string, details: string): Promise<void> {
    await store.transaction(async (trx) => {
      await store.writeConfig(trx, next, deps.now());
      await audit.record(trx, actor, { event, success: true, details });
    });
    config = next;
  }

  return {
    /** Loads the stored config; a stored value that no longer validates falls back to the defaults per key. */
    async load(): Promise<void> {
      const stored = await store.readConfig();
      if (stored === undefined) return;
      const merged = mergeConfig(defaultAlertConfig(), stored as AlertConfigPatch);
      const r = alertConfig.safeParse(merged);
      config = r.success ? r.data : defaultAlertConfig();
    },

    getConfig: (): AlertConfig => config,

    async updateConfig(actor: Actor, patch: AlertConfigPatch): Promise<AlertConfig> {
      const next = mergeConfig(config, patch);
      const parsed = alertConfig.safeParse(next);
      if (!parsed.success) {
        const i = parsed.error.issues[0];
        const field = i?.path.join('.') || '(whole body)';
        throw new AppError('validation_failed', `Invalid alert configuration: ${field} (${i?.message}).`, {
          issues: parsed.error.issues.map((x) => ({ location: 'body', field: x.path.join('.'), message: x.message })),
        });
      }
      const bad = checkConfig(parsed.data);
      if (bad)
        throw new AppError('validation_failed', `Invalid alert configuration: ${bad.field} (${bad.message}).`, {
          issues: [{ location: 'body', ...bad }],
        });
      await saveConfig(parsed.data, actor, 'alerts_config_changed', `sections: ${Object.keys(patch).join(', ')}`);
      await deps.runner().reevaluate();
      return config;
    },

    async activate(actor: Actor) {
      if (config.activationState === 'active')
        return {
          success: true as const,
          message: 'Alerts already activated',
          state: config.activationState,
          activationTime: config.activationTime,
        };
      await saveConfig(
        { ...config, activationState: 'active', activationTime: iso(deps.now()) },
        actor,
        'alerts_activated',
        '',
      );
      await deps.runner().run((s) => announceActive(s));
      return {
        success: true as const,
        message: 'Alert notifications activated',
        state: config.activationState,
        activationTime: config.activationTime,
      };
    },

    async listActive(): Promise<AlertRecord[]> {
      await deps.runner().idle();
      return deps
        .runner()
        .active()
        .map((s) => s.alert)
        .sort(byPriority);
    },

    async history(q: {
      limit: number;
      offset: number;
      startTime?: string;
      endTime?: string;
      severity: string;
      resourceId?: string;
    }): Promise<ResolvedAlert[]> {
      await deps.runner().idle();
      const f: HistoryFilter = {
        limit: q.limit === 0 ? HISTORY_CAP : q.limit,
        offset: q.offset,
        start: q.startTime ? Date.parse(q.startTime) : undefined,
        end: q.endTime ? Date.parse(q.endTime) : undefined,
        severity: q.severity === 'all' ? undefined : (q.severity as 'warning' | 'critical'),
        resourceId: q.resourceId,
      };
      return store.listHistory(f);
    },

    async clearHistory(actor: Actor) {
      await store.transaction(async (trx) => {
        await store.clearHistory(trx);
        await audit.record(trx, actor, { event: 'alerts_history_cleared', success: true });
      });
      return { status: 'success' as const, message: 'Alert history cleared' };
    },

    async incidents(q: {
      alertIdentifier?: string;
      alert_id?: string;
      startTime?: string;
      resource_id?: string;
      limit: number;
    }): Promise<Incident | null | Incident[]> {
      await deps.runner().idle();
      const alertId = q.alertIdentifier ?? q.alert_id;
      if (alertId)
        return (await store.findIncident(alertId, q.startTime ? Date.parse(q.startTime) : undefined)) ?? null;
      return store.listIncidents(q.resource_id, q.limit);
    },

    async addNote(actor: Actor, b: { alertIdentifier?: string; incident_id?: string; note: string }) {
      await deps.runner().idle();
      const inc = b.incident_id
        ? await store.incidentById(b.incident_id)
        : await store.findIncident(b.alertIdentifier ?? '');
      if (!inc)
        throw notFound(b.incident_id ? `Incident ${b.incident_id}` : `The incident of alert ${b.alertIdentifier}`);
      const event = {
        id: `${deps.now()}-note`,
        type: 'note' as const,
        timestamp: iso(deps.now()),
        summary: `Note added by ${actor.user}`,
        details: { note: b.note, user: actor.user },
      };
      await store.transaction((trx) => store.addIncidentEvent(trx, inc.id, event));
      return { success: true as const };
    },

    /** acknowledge / unacknowledge / clear one alert; an id that is not active answers 404. */
    async act(action: AlertAction, actor: Actor, id: string) {
      const ok = await deps.runner().run((s) => actions[action](s, id, actor.user));
      if (!ok) throw notFound(`Alert ${id}`);
      return { success: true as const };
    },

    async bulk(action: 'acknowledge' | 'clear', actor: Actor, ids: string[]) {
      const results = await deps
        .runner()
        .run((s) =>
          ids.map((id) =>
            actions[action](s, id, actor.user)
              ? { id, success: true }
              : { id, success: false, error: 'alert not found' },
          ),
        );
      return { results };
    },
  };
}

export type AlertsService = ReturnType<typeof createAlertsService>;
