import type { AlertConfig, AlertLevel } from '@svc/contract';
import type { Category } from './alerts.rules.js';

const weekdays = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;
const formats = new Map<string, Intl.DateTimeFormat>();

/** Local weekday (0 = Sunday) and seconds since local midnight in a time zone. */
function localTime(now: number, timeZone: string): { day: number; seconds: number } {
  let f = formats.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      weekday: 'short',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    formats.set(timeZone, f);
  }
  const parts = Object.fromEntries(f.formatToParts(new Date(now)).map((p) => [p.type, p.value]));
  const day = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'].indexOf(parts.weekday ?? 'Sun');
  return { day, seconds: Number(parts.hour) * 3600 + Number(parts.minute) * 60 + Number(parts.second) };
}

const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/**
 * When the quiet-hours window that contains `now` ends (Unix ms), or undefined outside quiet hours.
 * The day flags name the day a window starts on, so Friday 22:00–08:00 runs into Saturday morning.
 */
export function quietUntil(c: AlertConfig, now: number): number | undefined {
  const q = c.schedule.quietHours;
  if (!q.enabled) return undefined;
  const { day, seconds } = localTime(now, q.timezone);
  const start = minutes(q.start) * 60;
  const end = minutes(q.end) * 60;
  if (start === end) return undefined;
  let startedOn: number | undefined;
  if (start < end) startedOn = seconds >= start && seconds < end ? day : undefined;
  else if (seconds >= start) startedOn = day;
  else if (seconds < end) startedOn = (day + 6) % 7;
  if (startedOn === undefined || !q.days[weekdays[startedOn] ?? 'sunday']) return undefined;
  const left = (end - seconds + 86_400) % 86_400;
  return now - (now % 1000) + left * 1000;
}

/** Warnings are always deferred in quiet hours; criticals only when their category's suppress flag is set. */
export function deferredUntil(c: AlertConfig, now: number, level: AlertLevel, category: Category): number {
  const until = quietUntil(c, now);
  if (until === undefined) return now;
  if (level === 'warning') return until;
  const s = c.schedule.quietHours.suppress;
  const suppressed = category === 'backup' ? s.storage : s[category];
  return suppressed ? until : now;
}
