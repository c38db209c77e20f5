/**
 * The notices the alert engine hands over, and the template data built from them. The alert engine defines
 * a structurally identical type; the two meet only through this shape.
 */
export type NoticeEvent = 'firing' | 'resolved' | 'reminder' | 'escalated' | 'flapping' | 'test';

export interface NoticeAlert {
  id: string;
  type: string;
  level: string;
  resourceId: string;
  resourceName: string;
  node: string;
  instance: string;
  message: string;
  value: number;
  threshold: number;
  /** RFC 3339 text or Unix milliseconds. */
  startTime: string | number;
  lastSeen: string | number;
  acknowledged: boolean;
  ackTime?: string | number;
  ackUser?: string;
  nodeDisplayName?: string;
  metadata?: Record<string, unknown>;
}

export interface Notice {
  /** Stable across retries and restarts, so receivers can de-duplicate. */
  eventId: string;
  event: NoticeEvent;
  alert: NoticeAlert;
  /** When the engine emitted it (Unix ms). */
  at: number;
  /** Recoveries only: the channels that got the alert (default) or every enabled channel. */
  routing?: RecoveryRouting;
}

export type RecoveryRouting = 'alerted-channels' | 'all-channels';

export type TemplateData = Record<string, unknown>;

export interface DataContext {
  now: number;
  publicUrl?: string;
  customFields?: Record<string, string>;
  mention?: string;
  chatId?: string;
}

const toMs = (t: string | number | undefined): number | undefined =>
  t === undefined || t === '' ? undefined : typeof t === 'number' ? t : Date.parse(t);

// Remembers its last answers: one message asks for the same few instants (now, the alert's start) repeatedly.
const isoSeen = new Map<number, string>();
const iso = (ms: number | undefined): string => {
  if (ms === undefined || Number.isNaN(ms)) return '';
  let s = isoSeen.get(ms);
  if (s === undefined) {
    s = new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
    if (isoSeen.size >= 64) isoSeen.clear();
    isoSeen.set(ms, s);
  }
  return s;
};

const round1 = (v: number): number => Math.round(v * 10) / 10;

/** "45s", "12m", "3h 5m", "2d 4h": how long an alert has been active. */
export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m`;
  const h = Math.floor(m / 60);
  if (h < 24) return m % 60 ? `${h}h ${m % 60}m` : `${h}h`;
  const d = Math.floor(h / 24);
  return h % 24 ? `${d}d ${h % 24}h` : `${d}d`;
}

const rates = new Set(['diskRead', 'diskWrite', 'networkIn', 'networkOut']);
const unitOf = (type: string): string => (rates.has(type) ? ' MB/s' : /temperature/i.test(type) ? '°C' : '%');

/** One alert as `.Alerts` lists it (the JSON names of the alert record). */
function alertObject(n: Notice): Record<string, unknown> {
  const a = n.alert;
  return {
    id: a.id,
    type: a.type,
    level: a.level,
    resourceId: a.resourceId,
    resourceName: a.resourceName,
    node: a.node,
    instance: a.instance,
    message: a.message,
    value: round1(a.value),
    threshold: round1(a.threshold),
    startTime: iso(toMs(a.startTime)),
    acknowledged: a.acknowledged,
    event: n.event,
  };
}

/** Message of a batch: the first alert's, then one line per alert, so nothing grouped is invisible. */
function groupedMessage(notices: readonly Notice[]): string {
  const first = notices[0]!.alert;
  if (notices.length === 1) return first.message;
  const lines = notices.map((n) => `• ${n.alert.resourceName} on ${n.alert.node}: ${n.alert.message}`);
  return `${first.message}\n\nAll ${notices.length} alerts:\n${lines.join('\n')}`;
}

/** The template data of alert-webhooks.md plus the reference's extras; numbers stay float64 as in Go. */
export function templateData(notices: readonly Notice[], ctx: DataContext): TemplateData {
  const n = notices[0];
  if (!n) throw new Error('templateData needs at least one notice');
  const a = n.alert;
  const start = toMs(a.startTime);
  const resolved = n.event === 'resolved';
  const until = resolved ? n.at : ctx.now;
  const unit = unitOf(a.type);
  return {
    ID: a.id,
    EventID: n.eventId,
    Event: n.event,
    Level: a.level,
    Type: a.type,
    ResourceName: a.resourceName,
    ResourceID: a.resourceId,
    ResourceType: String(a.metadata?.resourceType ?? ''),
    Node: a.node,
    NodeDisplayName: a.nodeDisplayName ?? a.node,
    Instance: a.instance,
    Message:
      resolved && notices.length === 1 ? `${a.resourceName} on ${a.node} is now healthy` : groupedMessage(notices),
    AlertMessage: a.message,
    Value: round1(a.value),
    Threshold: round1(a.threshold),
    ValueFormatted: `${round1(a.value).toFixed(1)}${unit}`,
    ThresholdFormatted: `${round1(a.threshold).toFixed(1)}${unit}`,
    Duration: formatDuration(start === undefined || Number.isNaN(start) ? 0 : until - start),
    Timestamp: iso(ctx.now),
    StartTime: iso(start),
    Acknowledged: a.acknowledged,
    AckTime: iso(toMs(a.ackTime)),
    AckUser: a.ackUser ?? '',
    ResolvedAt: resolved ? Math.floor(n.at / 1000) : 0,
    ResolvedAtISO: resolved ? iso(n.at) : '',
    Link: ctx.publicUrl ?? '',
    Metadata: a.metadata ?? {},
    CustomFields: ctx.customFields ?? {},
    Mention: ctx.mention ?? '',
    ChatID: ctx.chatId ?? '',
    AlertCount: notices.length,
    Alerts: notices.map(alertObject),
  };
}

/** The fixed alert of test sends: the same shape as a live notice, so a passing test means live works. */
export function testNotice(now: number, eventId?: string): Notice {
  const id = `test-${iso(now).replace(/[-:]/g, '').replace('T', '-').replace('Z', '')}`;
  return {
    eventId: eventId ?? `${id}:test`,
    event: 'test',
    at: now,
    alert: {
      id,
      type: 'cpu',
      level: 'warning',
      resourceId: 'hv1:node1:100',
      resourceName: 'Test Resource',
      node: 'node1',
      instance: 'hv1',
      message: 'This is a test alert from svc: if you can read it, this channel works.',
      value: 95.5,
      threshold: 90,
      startTime: now - 5 * 60_000,
      lastSeen: now,
      acknowledged: false,
      metadata: { resourceType: 'vm' },
    },
  };
}
