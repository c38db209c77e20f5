import { details, isResolved, levelOf, requireField, str, title, type WebhookKindImpl } from './webhook.kind.js';

const priority = { critical: 1, warning: 0, info: -1 } as const;
const sound = { critical: 'siren', warning: 'tugboat', info: 'pushover' } as const;

/** Pushover messages API: token and user come from the custom fields. */
export const pushover: WebhookKindImpl = {
  label: 'Pushover',
  urlPattern: 'https://api.pushover.net/1/messages.json',
  description: 'Pushover message',
  instructions:
    'Set the custom fields token (application API token) and user (user or group key); optional: priority, sound, device.',
  contentType: 'application/json',
  json: true,
  validate: (cfg) => {
    requireField(cfg, 'token', 'the Pushover application API token');
    requireField(cfg, 'user', 'the Pushover user or group key');
  },
  payload: (d) => {
    const cf = (d.CustomFields ?? {}) as Record<string, string>;
    const level = levelOf(d);
    const custom = cf.priority !== undefined && /^-?[0-2]$/.test(cf.priority) ? Number(cf.priority) : undefined;
    return JSON.stringify({
      token: cf.token ?? '',
      user: cf.user ?? '',
      title: `${title(d)}${isResolved(d) ? '' : ` - ${str(d.ResourceName)}`}`.slice(0, 250),
      message: `${str(d.Message)}\n\n${details(d)
        .map(([k, v]) => `• ${k}: ${v}`)
        .join('\n')}`.slice(0, 1024),
      priority: isResolved(d) ? -1 : (custom ?? priority[level]),
      sound: cf.sound ?? sound[level],
      ...(cf.device ? { device: cf.device } : {}),
      ...(d.Link ? { url: d.Link, url_title: 'View in svc' } : {}),
      timestamp: Math.floor(Date.parse(str(d.Timestamp)) / 1000),
    });
  },
  example: `{"token":"{{index .CustomFields "token"}}","user":"{{index .CustomFields "user"}}","title":"{{.Level | title}}: {{.ResourceName | jsonString}}","message":"{{.Message | jsonString}}"}`,
};
