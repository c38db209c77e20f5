import { REDACTED } from '@svc/contract';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, createToken, login, relaxedLimits, type Session, setUpAdmin } from '../../testing/access.js';
import { createTestApp, type TestApp } from '../../testing/app.js';
import { startReceiver, until } from '../../testing/notifications.js';

let t: TestApp;
let s: Session;
let rx: Awaited<ReturnType<typeof startReceiver>>;
const SECRET = 'Bearer top-secret-header-value';

beforeAll(async () => {
  t = await createTestApp({ env: { ...relaxedLimits, SVC_WEBHOOK_ALLOW_CIDRS: '127.0.0.1/32' } });
  await setUpAdmin(t);
  s = await login(t, ADMIN);
  rx = await startReceiver(() => ({ status: 200, body: 'thanks' }));
});
afterAll(async () => {
  await t.close();
  await rx.close();
});

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
  t.app.inject({ method, url, headers: method === 'GET' ? { cookie: s.cookie } : s.write, payload: payload as object });

describe('notification API', () => {
  let id = '';
  it('creates a webhook; secrets are masked in every response and encrypted at rest', async () => {
    const res = await call('POST', '/api/notifications/webhooks', {
      name: 'ops',
      url: `${rx.url}/hook`,
      service: 'generic',
      template: '{"m":"{{.Message | jsonString}}","v":{{.Value}}}',
      headers: { Authorization: SECRET },
      customFields: { team: 'ops-team-secret' },
      signingSecret: 'signing-secret-value',
    });
    expect(res.statusCode).toBe(201);
    const wh = res.json();
    id = wh.id;
    expect(wh.headers).toEqual({ Authorization: REDACTED });
    expect(wh.signingSecretSet).toBe(true);
    const list = await call('GET', '/api/notifications/webhooks');
    expect(list.body).not.toMatch(/top-secret|signing-secret-value|ops-team-secret/);
    const rows = await t.db.db.selectFrom('notification_webhooks').selectAll().execute();
    expect(JSON.stringify(rows)).not.toMatch(/top-secret|signing-secret-value|ops-team-secret/);
  });

  it('a masked header sent back keeps the stored value; a new value replaces it', async () => {
    const res = await call('PUT', `/api/notifications/webhooks/${id}`, {
      name: 'ops2',
      headers: { Authorization: REDACTED, 'X-Extra': 'e' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().name).toBe('ops2');
    const test = await call('POST', '/api/notifications/webhooks/test', {
      id,
      name: 'ops2',
      url: `${rx.url}/hook`,
      template: '{"ok":true}',
      headers: { Authorization: REDACTED },
    });
    expect(test.statusCode).toBe(200);
    expect(test.json()).toMatchObject({ success: true, status: 200, response: 'thanks' });
    expect(rx.received.at(-1)!.headers.authorization).toBe(SECRET);
  });

  it('refuses a generic template that does not render to JSON, naming the position', async () => {
    const res = await call('POST', '/api/notifications/webhooks', {
      name: 'bad',
      url: `${rx.url}/x`,
      template: '{"v": {{.Value}},\n "m": {{.Message}} }',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/not valid JSON: unexpected "T", expected a value at line 2, column 7/);
    const parse = await call('POST', '/api/notifications/webhooks/test', {
      name: 'bad',
      url: `${rx.url}/x`,
      template: '{"v": {{.Value}',
    });
    expect(parse.statusCode).toBe(400);
    expect(parse.json().message).toMatch(/invalid payload template: template: payload:1: bad character U\+007D '}'/);
  });

  it('telegram needs chat_id, gotify needs token, pushover needs token and user', async () => {
    const tg = await call('POST', '/api/notifications/webhooks', {
      name: 'tg',
      url: `${rx.url}/botX/sendMessage`,
      service: 'telegram',
    });
    expect(tg.statusCode).toBe(400);
    expect(tg.json().message).toMatch(/chat_id is required/);
    const go = await call('POST', '/api/notifications/webhooks', {
      name: 'g',
      url: `${rx.url}/message`,
      service: 'gotify',
    });
    expect(go.json().message).toMatch(/token is required/);
    const po = await call('POST', '/api/notifications/webhooks', {
      name: 'p',
      url: `${rx.url}/1/messages.json`,
      service: 'pushover',
    });
    expect(po.json().message).toMatch(/token is required/);
  });

  it('SSRF guard: loopback outside the allow-list, private, link-local and metadata targets are refused', async () => {
    for (const url of [
      'http://127.0.0.2/x',
      'http://10.0.0.5/x',
      'http://169.254.169.254/latest/meta-data',
      'http://[::1]/x',
      'http://metadata.google.internal/x',
    ]) {
      const res = await call('POST', '/api/notifications/webhooks/test', { name: 'x', url });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().message, url).toMatch(/loopback|metadata|resolves/);
    }
    const file = await call('POST', '/api/notifications/webhooks', { name: 'x', url: 'file:///etc/passwd' });
    expect(file.statusCode).toBe(400);
  });

  it('lists webhook templates for every kind', async () => {
    const res = await call('GET', '/api/notifications/webhook-templates');
    expect(res.json().map((x: { service: string }) => x.service)).toEqual([
      'generic',
      'discord',
      'slack',
      'teams',
      'teams-adaptive',
      'telegram',
      'gotify',
      'ntfy',
      'pagerduty',
      'pushover',
      'mattermost',
    ]);
  });

  it('needs credentials (401) and the settings scopes (403)', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/notifications/webhooks' })).statusCode).toBe(401);
    const token = await createToken(t, s, ['monitoring:read']);
    const res = await t.app.inject({ method: 'GET', url: '/api/notifications/dlq', headers: { 'x-api-token': token } });
    expect(res.statusCode).toBe(403);
    const ok = await createToken(t, s, ['settings:read'], 'reader');
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/notifications/queue/stats', headers: { 'x-api-token': ok } }))
        .statusCode,
    ).toBe(200);
  });

  it('email presets; email and relay settings keep secrets write-only', async () => {
    const presets = (await call('GET', '/api/notifications/email-providers')).json();
    expect(presets.find((p: { name: string }) => p.name === 'SendGrid')).toMatchObject({
      smtpHost: 'smtp.sendgrid.net',
      smtpPort: 587,
      startTLS: true,
    });
    const bad = await call('PUT', '/api/notifications/email', { enabled: true, server: '', from: '' });
    expect(bad.statusCode).toBe(400);
  });

  it('POST /test sends through the queue to webhook, email (smtp-server) and relay (Debian apprise)', async () => {
    const mails: string[] = [];
    const smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onAuth: (auth, _s, cb) =>
        cb(auth.username === 'svc' && auth.password === 'smtp-pass-123' ? null : new Error('bad auth'), {
          user: 'svc',
        }),
      onData(stream, _s, cb) {
        const parts: Buffer[] = [];
        stream.on('data', (c: Buffer) => parts.push(c));
        stream.on('end', () => {
          mails.push(Buffer.concat(parts).toString('utf8'));
          cb();
        });
      },
    });
    await new Promise<void>((r) => smtp.listen(0, '127.0.0.1', r));
    const smtpPort = (smtp.server.address() as { port: number }).port;
    const relayRx = await startReceiver(() => ({ status: 200 }));
    try {
      const e = await call('PUT', '/api/notifications/email', {
        enabled: true,
        server: '127.0.0.1',
        port: smtpPort,
        username: 'svc',
        password: 'smtp-pass-123',
        from: 'svc@example.test',
        to: ['Ops@Example.test'],
        tls: false,
        startTLS: false,
      });
      expect(e.statusCode).toBe(200);
      expect(e.json()).toMatchObject({ passwordSet: true, to: ['ops@example.test'] });
      expect(e.body).not.toContain('smtp-pass-123');
      const r = await call('PUT', '/api/notifications/relay', {
        enabled: true,
        mode: 'cli',
        targets: [`json://127.0.0.1:${relayRx.port}/apprise`],
      });
      expect(r.statusCode).toBe(200);
      const before = rx.received.length;
      const res = await call('POST', '/api/notifications/test');
      expect(res.statusCode).toBe(200);
      const results = res.json().results as Array<{ channel: string; success: boolean; error?: string }>;
      expect(results.map((x) => [x.channel, x.success, x.error])).toEqual([
        ['webhook', true, undefined],
        ['email', true, undefined],
        ['relay', true, undefined],
      ]);
      expect(rx.received.length).toBe(before + 1);
      await until(() => mails.length === 1, 'mail');
      const mail = await simpleParser(mails[0]!);
      expect(mail.subject).toBe('[svc test] Warning: cpu on Test Resource');
      expect(mail.text).toContain('This is a test alert from svc');
      expect(mail.html).toContain('<pre');
      expect(mail.to && 'text' in mail.to ? mail.to.text : '').toBe('ops@example.test');
      expect(relayRx.received).toHaveLength(1);
      const apprise = JSON.parse(relayRx.received[0]!.body);
      expect(apprise.title).toBe('[svc test] Warning: cpu on Test Resource');
      expect(apprise.message).toContain('This is a test alert from svc');
      const hist = (await call('GET', '/api/notifications/webhook-history?limit=5')).json();
      expect(hist[0]).toMatchObject({ event: 'test', success: true });
      const health = (await call('GET', '/api/notifications/health')).json();
      expect(health.channels.map((c: { channel: string }) => c.channel).sort()).toEqual(['email', 'relay', 'webhook']);
      expect(t.logLines().join('\n')).not.toMatch(/top-secret|signing-secret-value|smtp-pass-123/);
    } finally {
      await new Promise<void>((r) => smtp.close(() => r()));
      await relayRx.close();
    }
  }, 30_000);

  it('deletes a webhook (404 afterwards); DLQ retry of an unknown id is 404', async () => {
    expect((await call('DELETE', `/api/notifications/webhooks/${id}`)).statusCode).toBe(200);
    expect((await call('DELETE', `/api/notifications/webhooks/${id}`)).statusCode).toBe(404);
    expect((await call('POST', '/api/notifications/dlq/retry', { id: 'nope' })).statusCode).toBe(404);
    const audit = await t.db.db
      .selectFrom('audit_events')
      .select('event')
      .where('event', 'like', 'notifications.%')
      .execute();
    expect(audit.map((a) => a.event)).toContain('notifications.webhook.delete');
  });
});
