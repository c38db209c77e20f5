import type { WebhookKindImpl } from './webhook.kind.js';

const example = `{
  "alert": {
    "id": "{{.ID | jsonString}}",
    "event": "{{.Event}}",
    "level": "{{.Level}}",
    "type": "{{.Type}}",
    "resource": "{{.ResourceName | jsonString}}",
    "node": "{{.Node | jsonString}}",
    "message": "{{.Message | jsonString}}",
    "value": {{.Value}},
    "threshold": {{.Threshold}},
    "startTime": "{{.StartTime}}",
    "duration": "{{.Duration}}"
  },
  "timestamp": "{{.Timestamp}}",
  "source": "svc"
}`;

export const generic: WebhookKindImpl = {
  label: 'Generic',
  urlPattern: 'https://example.com/hook',
  description: 'Any HTTP endpoint; the payload is your own JSON template',
  instructions:
    'Write a JSON template with Go template syntax. It must render to valid JSON: use {{.X | jsonString}} inside strings and numbers such as {{.Value}} without quotes.',
  contentType: 'application/json',
  json: true,
  payload: (d) =>
    JSON.stringify({
      alert: {
        id: d.ID,
        event: d.Event,
        level: d.Level,
        type: d.Type,
        resource_id: d.ResourceID,
        resource_name: d.ResourceName,
        node: d.Node,
        instance: d.Instance,
        message: d.Message,
        value: d.Value,
        threshold: d.Threshold,
        start_time: d.StartTime,
        duration: d.Duration,
      },
      alerts: d.Alerts,
      count: d.AlertCount,
      event: d.Event,
      timestamp: d.Timestamp,
      source: 'svc',
    }),
  example,
};
