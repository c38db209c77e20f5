import { createHmac } from 'node:crypto';
import { type WebhookKind, webhookInput } from '@svc/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNotificationsHarness, startReceiver } from '../../testing/notifications.js';
import type { Notice } from './notifications.model.js';

type Harness = Awaited<ReturnType<typeof createNotificationsHarness>>;
type Receiver = Awaited<ReturnType<typeof startReceiver>>;

const notice = (event: Notice['event'], level = 'critical'): Notice => ({
  eventId: `hv1:node1:100-cpu:${event}`,
  event,
  at: Date.UTC(2026, 10, 22, 12, 0, 0),
  alert: {
    id: 'hv1:node1:100-cpu',
    type: 'cpu',
    level,
    resourceId: 'hv1:node1:100',
    resourceName: 'web-01',
    node: 'node1',
    instance: 'hv1',
    message: 'VM cpu at 97.3%',
    value: 97.34,
    threshold: 90,
    startTime: Date.UTC(2026, 10, 22, 11, 48, 0),
    lastSeen: Date.UTC(2026, 10, 22, 12, 0, 0),
    acknowledged: false,
  },
  // Formats only: a recovery here has no earlier firing to route by.
  ...(event === 'resolved' ? { routing: 'all-channels' as const } : {}),
});

let h: Harness;
let rx: Receiver;
beforeAll(async () => {
  h = await createNotificationsHarness();
  rx = await startReceiver(() => ({ status: 200, body: 'ok' }));
});
afterAll(async () => {
  await h.close();
  await rx.close();
});

/** Creates a webhook of `service`, delivers one notice through the queue, returns what the receiver got. */
async function deliver(service: WebhookKind, extra: Record<string, unknown>, n: Notice, path = '/hook') {
  const wh = await h.area.webhooks.create(
    h.actor,
    webhookInput.parse({ name: service, url: `${rx.url}${path}`, service, ...extra }),
  );
  const before = rx.received.length;
  await h.area.sink.deliver([n]);
  await h.area.worker.runNow();
  await h.area.webhooks.remove(h.actor, wh.id);
  expect(rx.received.length).toBe(before + 1);
  return rx.received[before]!;
}
// biome-ignore lint/suspicious/noExplicitAny: payload shapes are checked field by field below
const json = (r: { body: string }) => JSON.parse(r.body) as Record<string, any>;

describe('webhook kinds deliver the receiving service’s documented format', () => {
  it('discord: embeds with title, colour, fields; mention in content', async () => {
    const r = await deliver('discord', { mention: '@here' }, notice('firing'));
    const b = json(r);
    expect(b.content).toBe('@here');
    expect(b.embeds).toHaveLength(1);
    expect(b.embeds[0].color).toBe(15158332);
    expect(b.embeds[0].description).toBe('VM cpu at 97.3%');
    expect(b.embeds[0].fields.map((f: { name: string }) => f.name)).toEqual([
      'Resource',
      'Node',
      'Type',
      'Value',
      'Threshold',
      'Duration',
    ]);
    expect(b.embeds[0].fields[3].value).toBe('97.3%');
    expect(b.embeds[0].fields[5].value).toBe('12m');
    expect(r.headers['content-type']).toBe('application/json');
    expect(r.headers['x-svc-event-id']).toBe('hv1:node1:100-cpu:firing');
  });

  it('slack: text fallback plus Block Kit header, section and fields', async () => {
    const b = json(await deliver('slack', {}, notice('firing', 'warning')));
    expect(b.text).toBe('svc alert: Warning - web-01');
    expect(b.blocks.map((x: { type: string }) => x.type)).toEqual(['header', 'section', 'section', 'context']);
    expect(b.blocks[0].text.type).toBe('plain_text');
    expect(b.blocks[2].fields[0]).toEqual({ type: 'mrkdwn', text: '*Resource:*\nweb-01' });
  });

  it('teams: MessageCard with themeColor and facts', async () => {
    const b = json(await deliver('teams', {}, notice('firing')));
    expect(b['@type']).toBe('MessageCard');
    expect(b['@context']).toBe('https://schema.org/extensions');
    expect(b.themeColor).toBe('FF0000');
    expect(b.sections[0].facts).toContainEqual({ name: 'Instance', value: 'hv1' });
  });

  it('teams-adaptive: message with an Adaptive Card 1.4 attachment', async () => {
    const b = json(await deliver('teams-adaptive', {}, notice('resolved')));
    expect(b.type).toBe('message');
    expect(b.attachments[0].contentType).toBe('application/vnd.microsoft.card.adaptive');
    const card = b.attachments[0].content;
    expect(card.type).toBe('AdaptiveCard');
    expect(card.version).toBe('1.4');
    expect(card.body[0]).toMatchObject({ type: 'TextBlock', text: 'Resolved: web-01', color: 'Good' });
    expect(card.body[2].type).toBe('FactSet');
  });

  it('telegram: chat_id moves from the URL into the body; Markdown parse mode', async () => {
    const r = await deliver('telegram', {}, notice('firing'), '/botTOKEN/sendMessage?chat_id=-100123');
    expect(r.url).toBe('/botTOKEN/sendMessage');
    const b = json(r);
    expect(b.chat_id).toBe(-100123);
    expect(b.parse_mode).toBe('Markdown');
    expect(b.disable_web_page_preview).toBe(true);
    expect(b.text).toContain('VM cpu at 97.3%');
  });

  it('gotify: message, title, priority by severity, markdown extras; token stays in the URL', async () => {
    const r = await deliver('gotify', {}, notice('firing', 'warning'), '/message?token=abc');
    expect(r.url).toBe('/message?token=abc');
    const b = json(r);
    expect(typeof b.message).toBe('string');
    expect(b.title).toContain('web-01');
    expect(b.priority).toBe(5);
    expect(b.extras['client::display'].contentType).toBe('text/markdown');
  });

  it('ntfy: plain-text body, Title/Priority/Tags headers by severity', async () => {
    const crit = await deliver('ntfy', {}, notice('firing'), '/svc-alerts-x1');
    expect(crit.headers['content-type']).toMatch(/^text\/plain/);
    expect(crit.headers.priority).toBe('urgent');
    expect(crit.headers.tags).toBe('rotating_light,svc,cpu');
    expect(crit.headers.title).toBe('CRITICAL: web-01 on node1');
    expect(crit.body.startsWith('VM cpu at 97.3%')).toBe(true);
    const res = await deliver('ntfy', {}, notice('resolved'), '/svc-alerts-x1');
    expect(res.headers.priority).toBe('default');
    expect(res.headers.tags).toBe('white_check_mark,svc,resolved');
    expect(res.body).toMatch(/^Resolved: web-01 on node1 is now healthy/);
  });

  it('pagerduty: Events API v2 trigger and resolve share the dedup key', async () => {
    const extra = { customFields: { routing_key: 'R0UT1NGKEY' } };
    const t = json(await deliver('pagerduty', extra, notice('firing')));
    expect(t).toMatchObject({ routing_key: 'R0UT1NGKEY', event_action: 'trigger', dedup_key: 'hv1:node1:100-cpu' });
    expect(t.payload).toMatchObject({
      summary: 'VM cpu at 97.3%',
      severity: 'critical',
      source: 'node1',
      component: 'web-01',
    });
    const r = await deliver('pagerduty', { headers: { routing_key: 'R0UT1NGKEY' } }, notice('resolved'));
    expect(json(r)).toEqual({ routing_key: 'R0UT1NGKEY', event_action: 'resolve', dedup_key: 'hv1:node1:100-cpu' });
    expect(r.headers.accept).toBe('application/vnd.pagerduty+json;version=2');
  });

  it('pushover: token, user, title, message, priority and sound', async () => {
    const b = json(
      await deliver('pushover', { customFields: { token: 'apptoken', user: 'userkey' } }, notice('firing')),
    );
    expect(b).toMatchObject({ token: 'apptoken', user: 'userkey', priority: 1, sound: 'siren' });
    expect(b.title).toBe('svc alert: Critical - web-01');
    expect(b.message.length).toBeLessThanOrEqual(1024);
  });

  it('mattermost: username and markdown text with a table; mention included', async () => {
    const b = json(await deliver('mattermost', { mention: '@channel' }, notice('firing')));
    expect(b.username).toBe('svc');
    expect(b.text).toMatch(/^@channel :rotating_light: \*\*CRITICAL ALERT\*\*/);
    expect(b.text).toContain('| Resource | web-01 |');
  });

  it('generic: the user template with the spec variables, custom headers and an HMAC signature', async () => {
    const template =
      '{"id":"{{.ID}}","level":"{{.Level | upper}}","msg":"{{.Message | jsonString}}","value":{{.Value}},"threshold":{{.Threshold}},"node":"{{.Node}}","dur":"{{.Duration}}","start":"{{.StartTime}}","ts":"{{.Timestamp}}","cf":"{{.CustomFields.team}}"}';
    const r = await deliver(
      'generic',
      {
        template,
        headers: { Authorization: 'Bearer s3cret-token' },
        customFields: { team: 'ops' },
        signingSecret: 'k3y',
      },
      notice('firing'),
      '/x/{{.Node | urlpath}}?r={{.ResourceName | urlquery}}',
    );
    expect(r.url).toBe('/x/node1?r=web-01');
    expect(json(r)).toEqual({
      id: 'hv1:node1:100-cpu',
      level: 'CRITICAL',
      msg: 'VM cpu at 97.3%',
      value: 97.3,
      threshold: 90,
      node: 'node1',
      dur: '12m',
      start: '2026-11-22T11:48:00Z',
      ts: '2026-11-22T12:00:00Z',
      cf: 'ops',
    });
    expect(r.headers.authorization).toBe('Bearer s3cret-token');
    const ts = r.headers['x-svc-timestamp'] as string;
    const expected = `v1=${createHmac('sha256', 'k3y').update(`${ts}.${r.body}`).digest('hex')}`;
    expect(r.headers['x-svc-signature']).toBe(expected);
  });
});
