import { details, isResolved, levelOf, str, type WebhookKindImpl } from './webhook.kind.js';

// ntfy priorities: 1 min, 2 low, 3 default, 4 high, 5 urgent; tags that name emoji render as emoji.
const priority = { critical: 'urgent', warning: 'high', info: 'default' } as const;
const emoji = { critical: 'rotating_light', warning: 'warning', info: 'information_source' } as const;

export const ntfy: WebhookKindImpl = {
  label: 'ntfy',
  urlPattern: 'https://ntfy.sh/{topic}',
  description: 'ntfy topic (plain text with Title, Priority and Tags headers)',
  instructions:
    'Anyone who knows a topic can publish to it: use a long random topic, or an access token in an Authorization header.',
  contentType: 'text/plain; charset=utf-8',
  json: false,
  payload: (d) => {
    if (isResolved(d))
      return `Resolved: ${str(d.ResourceName)} on ${str(d.Node)} is now healthy\n\n${str(d.AlertMessage)}`;
    const rows = details(d).map(([k, v]) => `- ${k}: ${v}`);
    const link = d.Link ? `\n\nView in svc: ${str(d.Link)}` : '';
    return `${str(d.Message)}\n\nAlert details:\n${rows.join('\n')}\n- Alert: ${str(d.ID)}${link}`;
  },
  headers: (d) => {
    const level = levelOf(d);
    const many = Number(d.AlertCount) > 1;
    const what = many ? `${str(d.AlertCount)} alerts` : `${str(d.ResourceName)} on ${str(d.Node)}`;
    const head = isResolved(d) ? `RESOLVED: ${what}` : `${str(d.Level).toUpperCase()}: ${what}`;
    return {
      // HTTP header values must be Latin-1; ntfy decodes RFC 2047 encoded words for the rest.
      Title: /^[\x20-\x7e]*$/.test(head) ? head : `=?UTF-8?B?${Buffer.from(head).toString('base64')}?=`,
      Priority: priority[level],
      Tags: isResolved(d) ? 'white_check_mark,svc,resolved' : `${emoji[level]},svc,${many ? 'grouped' : str(d.Type)}`,
      ...(d.Link ? { Click: str(d.Link) } : {}),
    };
  },
  example: `{{.Level | upper}}: {{.ResourceName}} on {{.Node}}\n\n{{.Message}}`,
};
