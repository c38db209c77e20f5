import type { alertsRoutes } from '@svc/contract';
import type { Handlers, RequestContext } from '@svc/platform';
import type { Caller } from '../../platform/http/principal.js';
import { actorOf } from '../audit/index.js';
import type { AlertsService } from './alerts.service.js';

type Ctx = RequestContext<Caller>;
const idOf = (b: { id?: string; alertIdentifier?: string }) => (b.id ?? b.alertIdentifier) as string;
const idsOf = (b: { ids?: string[]; alertIdentifiers?: string[] }) => [...(b.ids ?? []), ...(b.alertIdentifiers ?? [])];

export function alertsHandlers(service: AlertsService): Handlers<typeof alertsRoutes, Caller> {
  const actor = (ctx: Ctx, path: string) => actorOf(ctx, path);
  return {
    getAlertConfig: () => service.getConfig(),
    updateAlertConfig: (ctx, { body }) => service.updateConfig(actor(ctx, '/api/alerts/config'), body),
    activateAlerts: (ctx) => service.activate(actor(ctx, '/api/alerts/activate')),
    listActiveAlerts: () => service.listActive(),
    getAlertHistory: (_ctx, { query }) => service.history(query),
    clearAlertHistory: (ctx) => service.clearHistory(actor(ctx, '/api/alerts/history')),
    getAlertIncidents: (_ctx, { query }) => service.incidents(query),
    addIncidentNote: (ctx, { body }) => service.addNote(actor(ctx, '/api/alerts/incidents/note'), body),
    acknowledgeAlert: (ctx, { body }) => service.act('acknowledge', actor(ctx, '/api/alerts/acknowledge'), idOf(body)),
    unacknowledgeAlert: (ctx, { body }) =>
      service.act('unacknowledge', actor(ctx, '/api/alerts/unacknowledge'), idOf(body)),
    clearAlert: (ctx, { body }) => service.act('clear', actor(ctx, '/api/alerts/clear'), idOf(body)),
    bulkAcknowledgeAlerts: (ctx, { body }) =>
      service.bulk('acknowledge', actor(ctx, '/api/alerts/bulk/acknowledge'), idsOf(body)),
    bulkClearAlerts: (ctx, { body }) => service.bulk('clear', actor(ctx, '/api/alerts/bulk/clear'), idsOf(body)),
    acknowledgeAlertLegacy: (ctx, { params }) =>
      service.act('acknowledge', actor(ctx, '/api/alerts/{id}/acknowledge'), params.id),
    unacknowledgeAlertLegacy: (ctx, { params }) =>
      service.act('unacknowledge', actor(ctx, '/api/alerts/{id}/unacknowledge'), params.id),
    clearAlertLegacy: (ctx, { params }) => service.act('clear', actor(ctx, '/api/alerts/{id}/clear'), params.id),
  };
}
