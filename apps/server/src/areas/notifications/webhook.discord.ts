import { details, isResolved, levelOf, str, title, type WebhookKindImpl } from './webhook.kind.js';

// Discord embed colours are decimal RGB.
const colour = { critical: 15158332, warning: 15105570, info: 3447003 } as const;

export const discord: WebhookKindImpl = {
  label: 'Discord',
  urlPattern: 'https://discord.com/api/webhooks/{webhook_id}/{webhook_token}',
  description: 'Discord channel webhook (embed message)',
  instructions: 'Channel settings → Integrations → Webhooks → New Webhook → Copy Webhook URL.',
  mentionPlaceholder: '@everyone or <@USER_ID> or <@&ROLE_ID>',
  contentType: 'application/json',
  json: true,
  payload: (d) =>
    JSON.stringify({
      username: 'svc',
      ...(d.Mention ? { content: str(d.Mention) } : {}),
      embeds: [
        {
          title: isResolved(d) ? title(d) : `${title(d)} - ${str(d.ResourceName)}`,
          description: str(d.Message).slice(0, 4096),
          color: isResolved(d) ? 3066993 : colour[levelOf(d)],
          fields: details(d).map(([name, value]) => ({ name, value: value || '-', inline: true })),
          timestamp: d.Timestamp,
          footer: { text: `svc · ${str(d.ID)}` },
        },
      ],
    }),
  example: `{"username":"svc","content":"{{.Mention | jsonString}}","embeds":[{"title":"{{.Level | title}}: {{.ResourceName | jsonString}}","description":"{{.Message | jsonString}}","color":{{if eq .Level "critical"}}15158332{{else}}15105570{{end}}}]}`,
};
