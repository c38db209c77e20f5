import type { AlertRecord, Incident } from '@svc/contract';
import type { NoticeEvent } from './alerts.notices.js';
import type { Category } from './alerts.rules.js';

/** Engine state of one alert key, persisted as JSON in `alert_states.data`. Times are Unix ms. */
export interface KeyState {
  id: string;
  active: boolean;
  alert: AlertRecord;
  startMs: number;
  owner: string;
  category: Category;
  monitorOnly: boolean;
  /** What receivers were last told about this key: decides whether a recovery is owed. */
  lastSent?: Extract<NoticeEvent, 'firing' | 'resolved' | 'flapping'>;
  lastNotifiedAt?: number;
  /** Latest hand-over time of this occurrence's announcements: quiet hours may hold one past `now`. */
  announcedDueAt?: number;
  /** Times of firing/reminder/escalated notices in the last hour (maxAlertsHour). */
  notifyTimes: number[];
  /** Fire and resolve times inside the flapping window. */
  transitions: number[];
  flappingUntil?: number;
  /** Set by a manual clear: the next evaluation that still sees the condition fires at once. */
  refire?: boolean;
  ackAt?: number;
}

export type IncidentEvent = Incident['events'][number];

export interface NoticeRow {
  alertId: string;
  event: NoticeEvent;
  at: number;
  dueAt: number;
  alert: AlertRecord;
}

/** Everything one engine step changes; written in one transaction. */
export interface Batch {
  put: Map<string, KeyState>;
  del: Set<string>;
  history: Array<{ kind: 'open' | 'update'; alert: AlertRecord; startMs: number; resolvedMs?: number }>;
  incidents: Array<
    | { kind: 'open'; alert: AlertRecord; startMs: number; resourceType: string; event: IncidentEvent }
    | { kind: 'event'; alertId: string; startMs: number; event: IncidentEvent; patch: Partial<Incident> }
  >;
  notices: NoticeRow[];
}

export const emptyBatch = (): Batch => ({ put: new Map(), del: new Set(), history: [], incidents: [], notices: [] });

export const iso = (ms: number): string => new Date(ms).toISOString();
