import type { AlertConfig, AlertRecord } from '@svc/contract';
import { type Batch, emptyBatch, type IncidentEvent, iso, type KeyState } from './alerts.model.js';
import type { NoticeEvent } from './alerts.notices.js';
import { deferredUntil } from './alerts.quiet.js';
import type { Observation, UnitResult } from './alerts.rules.js';

/** Active alerts whose lastSeen is older than this are re-written; fresher value changes are kept in memory. */
const LAST_SEEN_WRITE_MS = 60_000;
const HOUR = 3_600_000;

/**
 * One engine step over the committed states: reads see the step's own edits, edits are copies collected in
 * `batch`, and nothing in `states` changes until the batch has committed.
 */
export class Step {
  readonly batch: Batch = emptyBatch();
  private seq = 0;
  constructor(
    readonly now: number,
    readonly cfg: AlertConfig,
    private readonly states: ReadonlyMap<string, KeyState>,
    private readonly pending: Map<string, number>,
  ) {}

  get(id: string): KeyState | undefined {
    if (this.batch.del.has(id)) return undefined;
    return this.batch.put.get(id) ?? this.states.get(id);
  }
  edit(id: string): KeyState | undefined {
    const cur = this.get(id);
    if (!cur) return undefined;
    const copy = this.batch.put.get(id) ?? structuredClone(cur);
    this.batch.put.set(id, copy);
    return copy;
  }
  create(s: KeyState): KeyState {
    this.batch.del.delete(s.id);
    this.batch.put.set(s.id, s);
    return s;
  }
  drop(id: string): void {
    this.batch.put.delete(id);
    if (this.states.has(id)) this.batch.del.add(id);
  }
  /** Every key the step can see (committed plus created). */
  ids(): string[] {
    return [...new Set([...this.states.keys(), ...this.batch.put.keys()])].filter((id) => !this.batch.del.has(id));
  }
  event(type: IncidentEvent['type'], summary: string, details: Record<string, unknown>): IncidentEvent {
    return { id: `${this.now}-${++this.seq}`, type, timestamp: iso(this.now), summary, details };
  }
  clearPending(id: string): void {
    this.pending.delete(id);
  }
  pendingSince(id: string): number | undefined {
    return this.pending.get(id);
  }
  setPending(id: string, at: number): void {
    this.pending.set(id, at);
  }
}

/** Applies the observations of one unit; active alerts of the unit it no longer reports on resolve. */
export function observeUnit(step: Step, unit: UnitResult): void {
  const seen = new Set<string>();
  for (const o of unit.observations) {
    seen.add(o.id);
    observe(step, o, unit.owner);
  }
  if (unit.partial) return;
  for (const id of step.ids()) {
    const s = step.get(id);
    if (s?.owner !== unit.owner || seen.has(id)) continue;
    step.clearPending(id);
    if (s.active) resolve(step, id, 'no longer evaluated');
  }
}

function observe(step: Step, o: Observation, owner: string): void {
  const s = step.get(o.id);
  if (s?.active) {
    if (o.state === 'below') resolve(step, o.id);
    else refresh(step, s, o);
    return;
  }
  if (o.state !== 'above') {
    step.clearPending(o.id);
    return;
  }
  const first = step.pendingSince(o.id) ?? step.now;
  if (s?.refire || step.now - first >= o.delayMs) {
    step.clearPending(o.id);
    fire(step, o, owner, s?.refire ? step.now : first);
  } else step.setPending(o.id, first);
}

/** Keeps an active alert current; a rise from warning to critical is announced at once. */
function refresh(step: Step, s: KeyState, o: Observation): void {
  const a = s.alert;
  const upgraded = a.level === 'warning' && o.level === 'critical';
  const changed = a.level !== o.level || a.value !== o.value || a.message !== o.message;
  if (!changed && step.now - Date.parse(a.lastSeen) < LAST_SEEN_WRITE_MS) return;
  const e = step.edit(s.id)!;
  Object.assign(e.alert, {
    level: o.level,
    value: o.value,
    threshold: o.threshold,
    message: o.message,
    lastSeen: iso(step.now),
  });
  if (upgraded) issue(step, e, 'firing');
}

function record(o: Observation, startMs: number, now: number): AlertRecord {
  return {
    id: o.id,
    type: o.type,
    level: o.level,
    resourceId: o.resourceId,
    resourceName: o.resourceName,
    node: o.node,
    instance: o.instance,
    message: o.message,
    value: o.value,
    threshold: o.threshold,
    startTime: iso(startMs),
    lastSeen: iso(now),
    acknowledged: false,
    metadata: {
      resourceType: o.resourceType,
      clearThreshold: o.clear,
      ...(o.monitorOnly ? { monitorOnly: true } : {}),
    },
  };
}

function fire(step: Step, o: Observation, owner: string, startMs: number): void {
  const prev = step.get(o.id);
  const s = step.create({
    id: o.id,
    active: true,
    alert: record(o, startMs, step.now),
    startMs,
    owner,
    category: o.category,
    monitorOnly: o.monitorOnly === true,
    lastSent: prev?.lastSent,
    lastNotifiedAt: prev?.lastNotifiedAt,
    notifyTimes: prev?.notifyTimes ?? [],
    transitions: prev?.transitions ?? [],
    flappingUntil: prev?.flappingUntil,
  });
  if (s.flappingUntil !== undefined) s.alert.flapping = true;
  step.batch.history.push({ kind: 'open', alert: s.alert, startMs });
  const details = { type: o.type, level: o.level, value: o.value, threshold: o.threshold };
  step.batch.incidents.push({
    kind: 'open',
    alert: s.alert,
    startMs,
    resourceType: o.resourceType,
    event: step.event('alert_fired', o.message, details),
  });
  transition(step, s);
  issue(step, s, 'firing');
}

/** Ends an occurrence: history and incident are closed, the recovery is announced if one is owed. */
export function resolve(step: Step, id: string, reason?: string, by?: string): void {
  const s = step.edit(id);
  if (!s?.active) return;
  s.active = false;
  s.alert.lastSeen = iso(step.now);
  if (reason) s.alert.metadata = { ...s.alert.metadata, resolveReason: reason };
  step.batch.history.push({ kind: 'update', alert: s.alert, startMs: s.startMs, resolvedMs: step.now });
  const summary = by ? `Cleared by ${by}` : 'Alert resolved';
  const event = step.event('alert_resolved', summary, { resolved_at: iso(step.now), ...(by ? { user: by } : {}) });
  step.batch.incidents.push({
    kind: 'event',
    alertId: id,
    startMs: s.startMs,
    event,
    patch: { status: 'resolved', closedAt: iso(step.now) },
  });
  transition(step, s);
  issue(step, s, 'resolved');
  settle(step, s);
}

/** An inactive key is kept (idle) only while it still matters: flapping, a pending re-fire, or an owed recovery. */
export function settle(step: Step, s: KeyState): void {
  if (s.active) return;
  const window = step.cfg.flappingWindowSeconds * 1000;
  s.transitions = s.transitions.filter((t) => step.now - t < window);
  const owed = s.lastSent === 'firing' || s.lastSent === 'flapping';
  if (s.flappingUntil === undefined && !s.refire && !owed && s.transitions.length === 0) step.drop(s.id);
}

/** Counts fire/resolve transitions; enough inside the window flags the key flapping and says so once. */
function transition(step: Step, s: KeyState): void {
  const c = step.cfg;
  s.transitions = [...s.transitions.filter((t) => step.now - t < c.flappingWindowSeconds * 1000), step.now];
  if (!c.flappingEnabled || s.flappingUntil !== undefined || s.transitions.length < c.flappingThreshold) return;
  s.flappingUntil = step.now + c.flappingCooldownMinutes * 60_000;
  s.alert.flapping = true;
  issue(step, s, 'flapping');
}

export const notificationsOn = (c: AlertConfig) => c.enabled && c.activationState === 'active';

/** The notice policy: activation, monitor-only, flapping, owed recoveries, quiet-hours deferral. */
export function issue(step: Step, s: KeyState, event: NoticeEvent): void {
  const c = step.cfg;
  if (!notificationsOn(c) || s.monitorOnly) return;
  if (s.flappingUntil !== undefined && step.now < s.flappingUntil && event !== 'flapping') return;
  if (event === 'resolved') {
    if (s.lastSent !== 'firing' && s.lastSent !== 'flapping') return;
    const allowed = c.schedule.notifyOnResolve && (!s.alert.acknowledged || c.schedule.notifyOnResolveAcknowledged);
    s.lastSent = 'resolved';
    if (!allowed) return;
  }
  if (event === 'firing' || event === 'flapping') s.lastSent = event;
  if (event === 'firing' || event === 'reminder' || event === 'escalated') {
    s.lastNotifiedAt = step.now;
    s.notifyTimes = [...s.notifyTimes.filter((t) => step.now - t < HOUR), step.now];
    s.alert.lastNotified = iso(step.now);
  }
  let dueAt = deferredUntil(c, step.now, s.alert.level, s.category);
  // A recovery never overtakes its own announcement: the channels it goes to are those the announcement reached.
  if (event === 'resolved') {
    dueAt = Math.max(dueAt, s.announcedDueAt ?? 0);
    s.announcedDueAt = undefined;
  } else s.announcedDueAt = Math.max(dueAt, s.announcedDueAt ?? 0);
  const alert: AlertRecord = structuredClone(s.alert);
  if (event === 'resolved') alert.metadata = { ...alert.metadata, resolvedTime: iso(step.now) };
  if (dueAt > step.now) alert.metadata = { ...alert.metadata, quietHoursDeferredUntil: iso(dueAt) };
  step.batch.notices.push({ alertId: s.id, event, at: step.now, dueAt, alert });
}
