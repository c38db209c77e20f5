import { isResolved, levelOf, requireField, str, type WebhookKindImpl } from './webhook.kind.js';

const key = (d: Record<string, unknown>) => {
  const cf = (d.CustomFields ?? {}) as Record<string, string>;
  return cf.routing_key ?? '';
};

/** PagerDuty Events API v2: the alert id is the dedup key, so resolve closes the incident trigger opened. */
export const pagerduty: WebhookKindImpl = {
  label: 'PagerDuty',
  urlPattern: 'https://events.pagerduty.com/v2/enqueue',
  description: 'PagerDuty Events API v2 (trigger and resolve)',
  instructions:
    'Service → Integrations → Events API v2 → copy the Integration Key into the custom field (or header) routing_key.',
  contentType: 'application/json',
  json: true,
  validate: (cfg) => requireField(cfg, 'routing_key', 'the Events API v2 integration key of the PagerDuty service'),
  payload: (d) => {
    if (isResolved(d)) return JSON.stringify({ routing_key: key(d), event_action: 'resolve', dedup_key: d.ID });
    return JSON.stringify({
      routing_key: key(d),
      event_action: 'trigger',
      dedup_key: d.ID,
      payload: {
        summary: str(d.Message).slice(0, 1024),
        timestamp: d.Timestamp,
        severity: levelOf(d),
        source: str(d.Node) || str(d.Instance) || 'svc',
        component: d.ResourceName,
        group: d.Type,
        class: d.Type,
        custom_details: {
          alert_identifier: d.ID,
          resource_type: d.ResourceType,
          current_value: d.Value,
          threshold: d.Threshold,
          duration: d.Duration,
          instance: d.Instance,
        },
      },
      client: 'svc',
      ...(d.Link ? { client_url: d.Link, links: [{ href: d.Link, text: 'View in svc' }] } : {}),
    });
  },
  headers: () => ({ Accept: 'application/vnd.pagerduty+json;version=2' }),
  example: `{"routing_key":"{{index .CustomFields "routing_key"}}","event_action":"{{if eq .Event "resolved"}}resolve{{else}}trigger{{end}}","dedup_key":"{{.ID | jsonString}}","payload":{"summary":"{{.Message | jsonString}}","source":"{{.Node | jsonString}}","severity":"{{.Level}}"}}`,
};
