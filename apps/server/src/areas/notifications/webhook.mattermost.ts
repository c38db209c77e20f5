import { details, isResolved, str, type WebhookKindImpl } from './webhook.kind.js';

export const mattermost: WebhookKindImpl = {
  label: 'Mattermost',
  urlPattern: 'https://{host}/hooks/{webhook_key}',
  description: 'Mattermost incoming webhook (Markdown with a details table)',
  instructions: 'Integrations → Incoming Webhooks → Add → copy the URL.',
  mentionPlaceholder: '@channel or @username',
  contentType: 'application/json',
  json: true,
  payload: (d) => {
    const head = isResolved(d)
      ? ':white_check_mark: **RESOLVED**'
      : d.Level === 'critical'
        ? ':rotating_light: **CRITICAL ALERT**'
        : ':warning: **WARNING ALERT**';
    const table = [
      '| Field | Value |',
      '|---|---|',
      ...[...details(d), ['Alert', str(d.ID)]].map(([k, v]) => `| ${k} | ${v} |`),
    ];
    const mention = d.Mention ? `${str(d.Mention)} ` : '';
    const link = d.Link ? `\n\n[View in svc](${str(d.Link)})` : '';
    return JSON.stringify({
      username: 'svc',
      text: `${mention}${head} **${str(d.ResourceName)}** on **${str(d.Node)}**\n\n${str(d.Message)}\n\n${table.join('\n')}${link}`,
    });
  },
  example: `{"username":"svc","text":"{{.Mention}} **{{.Level | upper}}** {{.ResourceName | jsonString}}: {{.Message | jsonString}}"}`,
};
