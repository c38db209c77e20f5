import { details, str, title, type WebhookKindImpl } from './webhook.kind.js';

export const slack: WebhookKindImpl = {
  label: 'Slack',
  urlPattern: 'https://hooks.slack.com/services/{webhook_path}',
  description: 'Slack incoming webhook (Block Kit message)',
  instructions: 'Slack app → Incoming Webhooks → Add New Webhook to Workspace → copy the URL.',
  mentionPlaceholder: '<!channel> or <@USER_ID>',
  contentType: 'application/json',
  json: true,
  payload: (d) => {
    const head = `${title(d)} - ${str(d.ResourceName)}`;
    const blocks: unknown[] = [];
    if (d.Mention) blocks.push({ type: 'section', text: { type: 'mrkdwn', text: str(d.Mention) } });
    blocks.push(
      { type: 'header', text: { type: 'plain_text', text: title(d).slice(0, 150) } },
      { type: 'section', text: { type: 'mrkdwn', text: str(d.Message).slice(0, 3000) } },
      { type: 'section', fields: details(d).map(([k, v]) => ({ type: 'mrkdwn', text: `*${k}:*\n${v || '-'}` })) },
      { type: 'context', elements: [{ type: 'mrkdwn', text: `Alert: ${str(d.ID)}` }] },
    );
    return JSON.stringify({ text: d.Mention ? `${str(d.Mention)} ${head}` : head, blocks });
  },
  example: `{"text":"{{.Level | upper}}: {{.ResourceName | jsonString}}","blocks":[{"type":"section","text":{"type":"mrkdwn","text":"{{.Message | jsonString}}"}}]}`,
};
