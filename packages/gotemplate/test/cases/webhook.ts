import { type Case, group } from './types.js';

const alert = {
  ID: 'cpu-node1-101',
  Level: 'critical',
  Type: 'cpu',
  ResourceName: 'web-01 "prod" <main> & co',
  ResourceID: 'node1/qemu/101',
  Node: 'node1',
  Instance: 'https://hv.example.com:8006',
  Message: 'CPU usage is 95.5%\nover threshold\tfor 5m',
  Value: 95.5,
  Threshold: 90,
  Duration: '5m',
  Timestamp: '2024-05-01T12:00:00Z',
  StartTime: '2024-05-01T11:55:00Z',
  CustomFields: { routing_key: 'R0UT1NG', priority: '2', user: 'u k' },
  Alerts: [
    { ResourceName: 'web-01', Node: 'node1', Message: 'cpu high' },
    { ResourceName: 'db-01', Node: 'node2', Message: 'mem high' },
  ],
  AlertCount: 2,
  Mention: '<@123>',
  ChatID: '-100123',
};

const discord = `{
  "username": "svc",
  {{- if .Mention}}
  "content": "{{.Mention | jsonString}}",
  {{- end}}
  "embeds": [{
    "title": "Alert: {{.Level | title}}",
    "description": "{{.Message | jsonString}}",
    "color": {{if eq .Level "critical"}}15158332{{else if eq .Level "warning"}}15105570{{else}}3447003{{end}},
    "fields": [
      {"name": "Resource", "value": "{{.ResourceName | jsonString}}", "inline": true},
      {"name": "Node", "value": "{{.Node | jsonString}}", "inline": true},
      {"name": "Type", "value": "{{.Type | upper}}", "inline": true},
      {"name": "Value", "value": "{{printf "%.1f" .Value}}%", "inline": true},
      {"name": "Threshold", "value": "{{printf "%.1f" .Threshold}}%", "inline": true},
      {"name": "Duration", "value": "{{.Duration}}", "inline": true}
    ],
    "timestamp": "{{.Timestamp}}",
    "footer": {"text": "svc"}
  }]
}`;

const slack = `{"text": "{{.Level | upper}}: {{.ResourceName | jsonString}}", "blocks": [{{range $i, $a := .Alerts}}{{if $i}},{{end}}{"type": "section", "text": {"type": "mrkdwn", "text": "*{{$a.ResourceName | jsonString}}* on {{$a.Node}}: {{$a.Message | jsonString}}"}}{{end}}], "count": {{.AlertCount}}, "value": {{.Value}}, "threshold": {{.Threshold}}}`;

export const webhook: Case[] = [
  ...group('webhook', [
    [discord, alert],
    [discord, { ...alert, Level: 'warning', Mention: '' }],
    [discord, { ...alert, Level: 'info', Value: 12.345, Threshold: 0.05 }],
    [slack, alert],
    [
      'https://hooks.example.com/{{.Node | urlpath}}/{{.ResourceID | pathescape}}?msg={{.Message | urlquery}}&r={{urlencode .ResourceName}}',
      alert,
    ],
    [
      'https://api.example.com/bot/sendMessage?chat_id={{.ChatID}}&text={{printf "%s: %s" .Level .ResourceName | urlquery}}',
      alert,
    ],
    [
      '{"routing_key": "{{.CustomFields.routing_key}}", "dedup_key": "{{.ID}}", "severity": "{{if eq .Level "critical"}}critical{{else}}warning{{end}}"}',
      alert,
    ],
    [
      '{{title "hELLO wORLD"}} {{title ""}} {{title "élan"}} {{title "ß"}} {{upper "straße ǆ"}} {{lower "ÀÉÎ İ Σ"}}',
      alert,
    ],
    ['{{jsonString "a\\"b\\\\c\\n\\r\\t\\u0001\\b\\f<>&\\u2028\\u2029é😀"}}', alert],
    [
      '{{jsonString .Value}} {{jsonString .Alerts}} {{jsonString .Missing}} {{jsonString nil}} {{jsonString true}}',
      alert,
    ],
    ['{{urlpath "a b/c;d,e?f$g&h+i:j=k@l~m"}} {{urlquery "a b/c;d,e?f$g&h+i:j=k@l~m"}}', alert],
    ['{{urlpath .Value}} {{urlpath 1 2 "x"}} {{urlquery .Missing}} {{urlpath nil}} {{urlencode "é 😀"}}', alert],
    ['{{.Level | title}} {{.Type | upper}} {{.Node | lower}}', alert],
    ['{{upper .Value}}', alert],
    ['{{.Value | title}}', alert],
    ['{{title .Missing}}', alert],
    ['{{jsonString}}', alert],
    ['{{jsonString "a" "b"}}', alert],
    ['{{range .Alerts}}• {{.ResourceName}} on {{.Node}}: {{.Message}}\n{{end}}', alert],
    ['{{if and (eq .Type "cpu") (gt .Value .Threshold)}}CPU over by {{printf "%.2f" .Value}}{{end}}', alert],
    ['{{with .CustomFields}}{{.priority}}/{{.user | urlquery}}{{end}}', alert],
    ['{{.Alerts | len}} alerts, first {{(index .Alerts 0).ResourceName}}', alert],
  ]),
];
