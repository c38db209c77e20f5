/**
 * Renders/s of a Discord-style webhook payload through @svc/gotemplate with the webhook functions,
 * against building the same JSON by hand (JSON.stringify of the equivalent object) in the same run.
 */
import { parse, webhookFuncs } from '../packages/gotemplate/src/index.js';
import { median, report } from './lib/report.js';

const template = `{
  "username": "svc",
  {{- if .Mention}}
  "content": "{{.Mention | jsonString}}",
  {{- end}}
  "embeds": [{
    "title": "svc Alert: {{.Level | title}}",
    "description": "{{.Message | jsonString}}",
    "color": {{if eq .Level "critical"}}15158332{{else if eq .Level "warning"}}15105570{{else}}3447003{{end}},
    "fields": [
      {"name": "Resource", "value": "{{.ResourceName | jsonString}}", "inline": true},
      {"name": "Node", "value": "{{.Node | jsonString}}", "inline": true},
      {"name": "Type", "value": "{{.Type | upper}}", "inline": true},
      {"name": "Value", "value": "{{printf "%.1f" .Value}}%", "inline": true},
      {"name": "Threshold", "value": "{{printf "%.1f" .Threshold}}%", "inline": true},
      {"name": "Duration", "value": "{{.Duration | jsonString}}", "inline": true}
    ],
    "timestamp": "{{.Timestamp}}",
    "footer": {"text": "svc Monitoring"}
  }]
}`;

type Alert = Record<string, string | number>;

const data: Alert = {
  ID: 'cpu-node1-101',
  Level: 'critical',
  Type: 'cpu',
  ResourceName: 'web-01 "prod"',
  Node: 'node1',
  Message: 'CPU usage is 95.5% <over threshold>',
  Value: 95.5,
  Threshold: 90,
  Duration: '5m',
  Timestamp: '2024-05-01T12:00:00Z',
  Mention: '<@123456>',
};

const colors: Record<string, number> = { critical: 15158332, warning: 15105570 };

// The baseline: what a hand-written sender would do for the same payload.
function handWritten(a: Alert): string {
  const level = String(a.Level);
  const field = (name: string, value: string) => ({ name, value, inline: true });
  return JSON.stringify({
    username: 'svc',
    ...(a.Mention ? { content: a.Mention } : {}),
    embeds: [
      {
        title: `svc Alert: ${level.charAt(0).toUpperCase()}${level.slice(1).toLowerCase()}`,
        description: a.Message,
        color: colors[level] ?? 3447003,
        fields: [
          field('Resource', String(a.ResourceName)),
          field('Node', String(a.Node)),
          field('Type', String(a.Type).toUpperCase()),
          field('Value', `${Number(a.Value).toFixed(1)}%`),
          field('Threshold', `${Number(a.Threshold).toFixed(1)}%`),
          field('Duration', String(a.Duration)),
        ],
        timestamp: a.Timestamp,
        footer: { text: 'svc Monitoring' },
      },
    ],
  });
}

function rate(fn: () => string, ms: number): number {
  let n = 0;
  let sink = 0;
  const start = performance.now();
  let now = start;
  while (now - start < ms) {
    for (let i = 0; i < 200; i++) sink += fn().length;
    n += 200;
    now = performance.now();
  }
  if (sink === 0) throw new Error('nothing rendered');
  return n / ((now - start) / 1000);
}

const tmpl = parse('discord', template, { funcs: webhookFuncs });
const rendered = tmpl.execute(data);
JSON.parse(rendered); // the template must produce valid JSON, as the webhook sender requires
const render = () => tmpl.execute(data);
const baseline = () => handWritten(data);

rate(render, 300);
rate(baseline, 300);
const runs = 5;
const ours: number[] = [];
const base: number[] = [];
for (let i = 0; i < runs; i++) {
  ours.push(rate(render, 400));
  base.push(rate(baseline, 400));
}
const parseRate = rate(() => parse('discord', template, { funcs: webhookFuncs }).name, 400);

const ok = report([
  {
    name: 'template-render (Discord payload, webhook funcs)',
    value: median(ours),
    baseline: median(base),
    unit: 'renders/s',
    target: { op: '>=', ratio: 0.05 },
    extra: { parsesPerSecond: Math.round(parseRate), bytes: rendered.length },
  },
]);
process.exit(ok ? 0 : 1);
