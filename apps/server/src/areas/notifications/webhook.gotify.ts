import { details, isResolved, levelOf, str, WebhookConfigError, type WebhookKindImpl } from './webhook.kind.js';

const priority = { critical: 10, warning: 5, info: 2 } as const;

export const gotify: WebhookKindImpl = {
  label: 'Gotify',
  urlPattern: 'https://{host}/message?token={app_token}',
  description: 'Gotify server message (Markdown)',
  instructions: 'Gotify → Apps → Create Application → copy its token into the URL as ?token=.',
  contentType: 'application/json',
  json: true,
  target: (url) => {
    if (!url.searchParams.get('token')) {
      throw new WebhookConfigError(
        'token is required as a query parameter of the Gotify URL (…/message?token=<app token>)',
      );
    }
    return { url };
  },
  payload: (d) => {
    const level = levelOf(d);
    const head = isResolved(d)
      ? `**RESOLVED**: **${str(d.ResourceName)}** on **${str(d.Node)}**`
      : `**${level.toUpperCase()}**: **${str(d.ResourceName)}** on **${str(d.Node)}**`;
    const rows = details(d).map(([k, v]) => `- **${k}**: ${v}`);
    const link = d.Link ? `\n\n[View in svc](${str(d.Link)})` : '';
    return JSON.stringify({
      title: `${str(d.ResourceName)} - ${str(d.Type)} ${isResolved(d) ? 'resolved' : `${str(d.Level).toUpperCase()} alert`}`,
      message: `${head}\n\n${str(d.Message)}\n\n${rows.join('\n')}${link}`,
      priority: priority[level],
      extras: {
        'client::display': { contentType: 'text/markdown' },
        'svc::alert': { id: d.ID, event: d.Event, level: d.Level, type: d.Type, node: d.Node, value: d.Value },
      },
    });
  },
  example: `{"title":"{{.ResourceName | jsonString}}","message":"{{.Message | jsonString}}","priority":{{if eq .Level "critical"}}10{{else}}5{{end}}}`,
};
