import { details, isResolved, str, title, WebhookConfigError, type WebhookKindImpl } from './webhook.kind.js';

// Telegram Markdown (legacy) needs these escaped in free text.
const md = (s: string) => s.replace(/([_*`[])/g, '\\$1');

export const telegram: WebhookKindImpl = {
  label: 'Telegram',
  urlPattern: 'https://api.telegram.org/bot{bot_token}/sendMessage?chat_id={chat_id}',
  description: 'Telegram bot message (Markdown)',
  instructions:
    'Create a bot with @BotFather, add it to the chat, and put the chat id (numeric, may be negative) in the URL as ?chat_id=.',
  contentType: 'application/json',
  json: true,
  target: (url) => {
    const chatId = url.searchParams.get('chat_id');
    if (!chatId) throw new WebhookConfigError('chat_id is required in the Telegram URL (…/sendMessage?chat_id=<id>)');
    if (!/^-?\d+$/.test(chatId) && !/^@\w+$/.test(chatId)) {
      throw new WebhookConfigError('chat_id must be a numeric chat id (or @channelname)');
    }
    const clean = new URL(url);
    clean.searchParams.delete('chat_id');
    return { url: clean, chatId };
  },
  payload: (d) => {
    const icon = isResolved(d) ? '✅' : d.Level === 'critical' ? '🚨' : '⚠️';
    const lines = details(d).map(([k, v]) => `• ${k}: ${md(v)}`);
    const link = d.Link ? `\n\n[View in svc](${str(d.Link)})` : '';
    const text = `${icon} *${md(title(d))}*\n\n${md(str(d.Message))}\n\n*Details:*\n${lines.join('\n')}${link}`;
    const chat = str(d.ChatID);
    return JSON.stringify({
      chat_id: /^-?\d+$/.test(chat) ? Number(chat) : chat,
      text: text.slice(0, 4096),
      parse_mode: 'Markdown',
      disable_web_page_preview: true,
    });
  },
  example: `{"chat_id":"{{.ChatID}}","text":"*{{.Level | upper}}*: {{.Message | jsonString}}","parse_mode":"Markdown"}`,
};
