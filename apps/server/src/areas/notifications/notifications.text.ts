import { formatDuration, type Notice } from './notifications.model.js';

/** Human text of a batch of notices, shared by email and the relay so both say the same thing. */
export interface NoticeText {
  subject: string;
  text: string;
  html: string;
  /** Apprise notification type. */
  type: 'failure' | 'warning' | 'info' | 'success';
}

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const startMs = (n: Notice) =>
  typeof n.alert.startTime === 'number' ? n.alert.startTime : Date.parse(n.alert.startTime);

function subjectOf(notices: readonly Notice[]): string {
  const first = notices[0]!;
  const resolved = notices.every((n) => n.event === 'resolved');
  if (resolved)
    return notices.length === 1
      ? `svc alert resolved: ${first.alert.resourceName}`
      : `svc alerts resolved (${notices.length})`;
  const prefix = first.event === 'test' ? '[svc test]' : '[svc alert]';
  if (notices.length === 1) {
    const a = first.alert;
    return `${prefix} ${a.level === 'critical' ? 'Critical' : 'Warning'}: ${a.type} on ${a.resourceName}`;
  }
  const crit = notices.filter((n) => n.alert.level === 'critical').length;
  const parts = [crit ? `${crit} Critical` : '', notices.length - crit ? `${notices.length - crit} Warning` : ''];
  return `${prefix} ${parts.filter(Boolean).join(', ')} alerts`;
}

function lines(n: Notice, now: number, publicUrl?: string): string[] {
  const a = n.alert;
  const out = [
    `[${n.event === 'resolved' ? 'RESOLVED' : a.level.toUpperCase()}] ${a.resourceName}: ${a.message}`,
    `  Value ${a.value.toFixed(2)} (threshold ${a.threshold.toFixed(2)})`,
    `  Node: ${a.node}   Instance: ${a.instance}`,
    `  Started: ${new Date(startMs(n)).toISOString()} (${formatDuration((n.event === 'resolved' ? n.at : now) - startMs(n))} ago)`,
    `  Alert: ${a.id}`,
  ];
  if (n.event === 'resolved') out.push(`  Resolved at: ${new Date(n.at).toISOString()}`);
  if (publicUrl) out.push(`  Dashboard: ${publicUrl}`);
  return out;
}

export function noticeText(notices: readonly Notice[], now: number, publicUrl?: string): NoticeText {
  const text = notices.map((n) => lines(n, now, publicUrl).join('\n')).join('\n\n');
  const rows = notices
    .map((n) => {
      const colour = n.event === 'resolved' ? '#2dc72d' : n.alert.level === 'critical' ? '#ff6b6b' : '#ffd93d';
      return `<tr><td style="border-left:4px solid ${colour};padding:6px 10px"><pre style="margin:0;font-family:monospace">${esc(
        lines(n, now, publicUrl).join('\n'),
      )}</pre></td></tr>`;
    })
    .join('\n');
  const resolved = notices.every((n) => n.event === 'resolved');
  const anyCrit = notices.some((n) => n.alert.level === 'critical');
  return {
    subject: subjectOf(notices),
    text: `${text}\n`,
    html: `<!doctype html><html><body><h2>${esc(subjectOf(notices))}</h2><table>${rows}</table></body></html>`,
    type: resolved ? 'success' : anyCrit ? 'failure' : notices[0]!.event === 'test' ? 'info' : 'warning',
  };
}
