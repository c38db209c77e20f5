import { issue, resolve, type Step, settle } from './alerts.engine.js';
import { iso, type KeyState } from './alerts.model.js';

const HOUR = 3_600_000;
const DAY = 86_400_000;

/** Time-driven work of one tick over every key: flapping ends, reminders, escalation, auto-ack, expiry. */
export function timedWork(step: Step): void {
  for (const id of step.ids()) {
    const s = step.get(id);
    if (!s) continue;
    if (s.flappingUntil !== undefined && step.now >= s.flappingUntil) endFlapping(step, id);
    const cur = step.get(id);
    if (!cur) continue;
    if (!cur.active) {
      if (cur.transitions.some((t) => step.now - t >= step.cfg.flappingWindowSeconds * 1000))
        settle(step, step.edit(id)!);
      continue;
    }
    remind(step, cur);
    escalate(step, id);
    autoAcknowledge(step, id);
    expire(step, id);
  }
}

/** After the flapping cooldown, receivers learn the state the key settled in (never a silent recovery). */
function endFlapping(step: Step, id: string): void {
  const s = step.edit(id)!;
  s.flappingUntil = undefined;
  delete s.alert.flapping;
  if (s.active && s.lastSent !== 'firing') issue(step, s, 'firing');
  else if (!s.active) {
    issue(step, s, 'resolved');
    settle(step, s);
  }
}

function remind(step: Step, s: KeyState): void {
  const sch = step.cfg.schedule;
  if (s.alert.acknowledged || s.lastSent !== 'firing' || sch.cooldown <= 0 || s.lastNotifiedAt === undefined) return;
  if (step.now - s.lastNotifiedAt < sch.cooldown * 60_000) return;
  if (s.notifyTimes.filter((t) => step.now - t < HOUR).length >= sch.maxAlertsHour) return;
  issue(step, step.edit(s.id)!, 'reminder');
}

/** Each escalation level fires once per occurrence, measured from startTime; never for acknowledged alerts. */
function escalate(step: Step, id: string): void {
  const esc = step.cfg.schedule.escalation;
  const s = step.get(id)!;
  if (!esc.enabled || s.alert.acknowledged || s.lastSent !== 'firing') return;
  const done = s.alert.lastEscalation ?? 0;
  const due = esc.levels.findLastIndex((l) => step.now - s.startMs >= l.after * 60_000) + 1;
  if (due <= done) return;
  const e = step.edit(id)!;
  for (let level = done + 1; level <= due; level++) {
    e.alert.lastEscalation = level;
    e.alert.escalationTimes = [...(e.alert.escalationTimes ?? []), iso(step.now)];
    e.alert.metadata = { ...e.alert.metadata, escalationNotify: esc.levels[level - 1]?.notify };
    issue(step, e, 'escalated');
  }
}

function autoAcknowledge(step: Step, id: string): void {
  const hours = step.cfg.autoAcknowledgeAfterHours;
  const s = step.get(id)!;
  if (hours <= 0 || s.alert.acknowledged || step.now - s.startMs < hours * HOUR) return;
  acknowledge(step, id, 'system-auto');
}

/** Alerts not seen for the max age (acknowledged: maxAcknowledgedAgeDays) are stale: closed without a notice. */
function expire(step: Step, id: string): void {
  const s = step.get(id)!;
  const days = s.alert.acknowledged ? step.cfg.maxAcknowledgedAgeDays : step.cfg.maxAlertAgeDays;
  if (days <= 0 || step.now - Date.parse(s.alert.lastSeen) < days * DAY) return;
  const e = step.edit(id)!;
  e.lastSent = 'resolved'; // receivers are not told "recovered" about something that was merely not seen
  resolve(step, id, 'expired');
}

export function acknowledge(step: Step, id: string, user: string): boolean {
  const s = step.get(id);
  if (!s?.active) return false;
  if (s.alert.acknowledged) return true;
  const e = step.edit(id)!;
  Object.assign(e.alert, { acknowledged: true, ackTime: iso(step.now), ackUser: user });
  e.ackAt = step.now;
  step.batch.history.push({ kind: 'update', alert: e.alert, startMs: e.startMs });
  const event = step.event('alert_acknowledged', `Acknowledged by ${user}`, { user });
  step.batch.incidents.push({
    kind: 'event',
    alertId: id,
    startMs: e.startMs,
    event,
    patch: { acknowledged: true, ackUser: user, ackTime: iso(step.now) },
  });
  return true;
}

export function unacknowledge(step: Step, id: string, user: string): boolean {
  const s = step.get(id);
  if (!s?.active) return false;
  if (!s.alert.acknowledged) return true;
  const e = step.edit(id)!;
  e.alert.acknowledged = false;
  delete e.alert.ackTime;
  delete e.alert.ackUser;
  e.ackAt = undefined;
  // Reminders resume from now rather than all at once for the time spent acknowledged.
  e.lastNotifiedAt = e.lastSent === 'firing' ? step.now : e.lastNotifiedAt;
  step.batch.history.push({ kind: 'update', alert: e.alert, startMs: e.startMs });
  const event = step.event('alert_unacknowledged', `Acknowledgement removed by ${user}`, { user });
  step.batch.incidents.push({
    kind: 'event',
    alertId: id,
    startMs: e.startMs,
    event,
    patch: { acknowledged: false, ackUser: undefined, ackTime: undefined },
  });
  return true;
}

/** Dismiss: announced as resolved; the next evaluation that still sees the condition fires a new occurrence. */
export function clear(step: Step, id: string, user: string): boolean {
  const s = step.get(id);
  if (!s?.active) return false;
  step.edit(id)!.refire = true;
  resolve(step, id, 'cleared', user);
  step.clearPending(id);
  return true;
}

/** On activation every unacknowledged active alert is announced (warnings too, unlike the reference). */
export function announceActive(step: Step): void {
  for (const id of step.ids()) {
    const s = step.get(id);
    if (s?.active && !s.alert.acknowledged && s.lastSent !== 'firing') issue(step, step.edit(id)!, 'firing');
  }
}
