import { details, levelOf, str, title, type WebhookKindImpl } from './webhook.kind.js';

const theme = { critical: 'FF0000', warning: 'FFA500', info: '2DC72D' } as const;
const cardColour = { critical: 'Attention', warning: 'Warning', info: 'Good' } as const;

const facts = (d: Record<string, unknown>) => [...details(d), ['Instance', str(d.Instance)]];

/** Legacy Office 365 connector MessageCard. */
export const teams: WebhookKindImpl = {
  label: 'Microsoft Teams',
  urlPattern: 'https://{tenant}.webhook.office.com/webhookb2/{webhook_path}',
  description: 'Teams connector (MessageCard)',
  instructions:
    'Channel → Connectors → Incoming Webhook → copy the URL. Connectors are being retired: prefer Teams (Adaptive) with a Workflows webhook.',
  mentionPlaceholder: '<at>Name</at>',
  contentType: 'application/json',
  json: true,
  payload: (d) =>
    JSON.stringify({
      '@type': 'MessageCard',
      '@context': 'https://schema.org/extensions',
      themeColor: theme[levelOf(d)],
      summary: `${title(d)} - ${str(d.ResourceName)}`,
      ...(d.Mention ? { text: str(d.Mention) } : {}),
      sections: [
        {
          activityTitle: title(d),
          activitySubtitle: str(d.Message),
          facts: facts(d).map(([name, value]) => ({ name, value })),
          markdown: true,
        },
      ],
      ...(d.Link
        ? { potentialAction: [{ '@type': 'OpenUri', name: 'View in svc', targets: [{ os: 'default', uri: d.Link }] }] }
        : {}),
    }),
  example: `{"@type":"MessageCard","@context":"https://schema.org/extensions","summary":"{{.ResourceName | jsonString}}","text":"{{.Message | jsonString}}"}`,
};

/** Adaptive Card 1.4 in a message envelope, as Teams Workflows webhooks take it. */
export const teamsAdaptive: WebhookKindImpl = {
  label: 'Teams (Adaptive)',
  urlPattern: 'https://{host}.logic.azure.com/workflows/{workflow_path}',
  description: 'Teams Workflows webhook (Adaptive Card)',
  instructions: 'Teams → Workflows → "Post to a channel when a webhook request is received" → copy the URL.',
  mentionPlaceholder: '<at>Name</at>',
  contentType: 'application/json',
  json: true,
  payload: (d) => {
    const body: unknown[] = [
      { type: 'TextBlock', size: 'Large', weight: 'Bolder', text: title(d), color: cardColour[levelOf(d)], wrap: true },
      { type: 'TextBlock', text: str(d.Message), wrap: true },
      {
        type: 'FactSet',
        facts: [...facts(d), ['Alert Identifier', str(d.ID)]].map(([t, v]) => ({ title: t, value: v })),
      },
    ];
    if (d.Mention) body.unshift({ type: 'TextBlock', text: str(d.Mention), wrap: true });
    const card = {
      $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
      type: 'AdaptiveCard',
      version: '1.4',
      body,
      ...(d.Link ? { actions: [{ type: 'Action.OpenUrl', title: 'View in svc', url: d.Link }] } : {}),
    };
    return JSON.stringify({
      type: 'message',
      attachments: [{ contentType: 'application/vnd.microsoft.card.adaptive', contentUrl: null, content: card }],
    });
  },
  example: `{"type":"message","attachments":[{"contentType":"application/vnd.microsoft.card.adaptive","content":{"type":"AdaptiveCard","version":"1.4","body":[{"type":"TextBlock","text":"{{.Message | jsonString}}","wrap":true}]}}]}`,
};
