import type { TemplateData } from './notifications.model.js';

/** A webhook as the kinds see it: secrets already opened. */
export interface KindConfig {
  url: string;
  headers: Record<string, string>;
  customFields: Record<string, string>;
  mention: string;
}

/** A configuration a kind cannot send with (missing chat_id, token, routing key...): a 400 on save and test. */
export class WebhookConfigError extends Error {
  override name = 'WebhookConfigError';
}

export interface WebhookKindImpl {
  label: string;
  urlPattern: string;
  description: string;
  instructions: string;
  mentionPlaceholder?: string;
  /** Content type of the body; ntfy takes plain text. */
  contentType: string;
  /** Whether a payload (built-in or custom) must be JSON. */
  json: boolean;
  /** Checks the rendered target URL and rewrites it (telegram moves chat_id into the body). */
  target?(url: URL): { url: URL; chatId?: string };
  /** Checks the fields a kind requires (pushover token and user, pagerduty routing key). */
  validate?(cfg: KindConfig): void;
  /** The built-in payload when the webhook has no template of its own. */
  payload(d: TemplateData): string;
  /** Extra request headers the receiving service expects. */
  headers?(d: TemplateData): Record<string, string>;
  /** An example payload template to start a custom one from. */
  example: string;
}

// Helpers shared by the kinds: level colours and wording, and the detail lines every kind lists.
export const isResolved = (d: TemplateData): boolean => d.Event === 'resolved';
export const levelOf = (d: TemplateData): 'critical' | 'warning' | 'info' =>
  isResolved(d) ? 'info' : d.Level === 'critical' ? 'critical' : d.Level === 'warning' ? 'warning' : 'info';
export const str = (v: unknown): string => (v === undefined || v === null ? '' : String(v));
export const upperFirst = (s: string): string => (s ? s[0]!.toUpperCase() + s.slice(1) : s);

export function title(d: TemplateData): string {
  if (isResolved(d)) return `Resolved: ${str(d.ResourceName)}`;
  if (d.Event === 'test') return `svc test alert: ${upperFirst(str(d.Level))}`;
  return `svc alert: ${upperFirst(str(d.Level))}`;
}

export function details(d: TemplateData): Array<[string, string]> {
  const rows: Array<[string, string]> = [
    ['Resource', str(d.ResourceName)],
    ['Node', str(d.Node)],
    ['Type', str(d.Type)],
    ['Value', str(d.ValueFormatted)],
    ['Threshold', str(d.ThresholdFormatted)],
    ['Duration', str(d.Duration)],
  ];
  if (isResolved(d)) rows.push(['Resolved At', str(d.ResolvedAtISO)]);
  return rows;
}

/** Requires a non-empty custom field (or header of the same name, as some users configure it). */
export function requireField(cfg: KindConfig, name: string, why: string): void {
  if (!cfg.customFields[name] && !cfg.headers[name]) throw new WebhookConfigError(`${name} is required: ${why}`);
}
