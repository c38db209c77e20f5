import type { emailConfig, emailConfigInput, emailProvider } from '@svc/contract';
import type { z } from 'zod';
import type { AreaDeps } from '../area.js';
import type { Actor, AuditArea } from '../audit/index.js';
import type { Notice } from './notifications.model.js';
import type { SendOutcome } from './notifications.outcome.js';
import type { NotificationStore } from './notifications.store.js';
import { noticeText } from './notifications.text.js';

type Stored = Omit<z.infer<typeof emailConfigInput>, 'password'> & { sealedPassword: string };
const PURPOSE = 'notifications.email.password';

const preset = (name: string, smtpHost: string, instructions: string): z.input<typeof emailProvider> => ({
  name,
  smtpHost,
  smtpPort: 587,
  tls: false,
  startTLS: true,
  authRequired: true,
  instructions,
});

export const emailProviders = [
  preset(
    'Gmail / Google Workspace',
    'smtp.gmail.com',
    'Use an app password (Google account → Security → App passwords).',
  ),
  preset('SendGrid', 'smtp.sendgrid.net', 'Username "apikey", password: a SendGrid API key with Mail Send permission.'),
  preset('Mailgun', 'smtp.mailgun.org', 'Domain → Sending → SMTP credentials.'),
  preset(
    'Amazon SES (US East)',
    'email-smtp.us-east-1.amazonaws.com',
    'SES → SMTP settings → Create SMTP credentials; verify the sender.',
  ),
  preset('Microsoft 365 / Outlook', 'smtp.office365.com', 'SMTP AUTH must be enabled for the mailbox.'),
  preset('Brevo (formerly Sendinblue)', 'smtp-relay.brevo.com', 'SMTP & API → SMTP key.'),
  preset('Postmark', 'smtp.postmarkapp.com', 'Username and password: the server API token.'),
  preset('SparkPost', 'smtp.sparkpostmail.com', 'Username "SMTP_Injection", password: an API key with Send via SMTP.'),
  preset('Resend', 'smtp.resend.com', 'Username "resend", password: an API key.'),
  preset('SMTP2GO', 'mail.smtp2go.com', 'Settings → SMTP Users.'),
  {
    ...preset('Custom SMTP Server', '', 'Any SMTP server; port 465 for implicit TLS, 587 for STARTTLS.'),
    authRequired: false,
  },
];

const defaults: Stored = {
  enabled: false,
  provider: '',
  server: '',
  port: 587,
  username: '',
  from: '',
  to: [],
  tls: false,
  startTLS: true,
  sealedPassword: '',
};

export function createEmail(deps: AreaDeps, store: NotificationStore, audit: AuditArea) {
  const load = async (): Promise<Stored> => ({
    ...defaults,
    ...((await store.getConfig('email')) as Partial<Stored> | undefined),
  });
  const view = (s: Stored): z.input<typeof emailConfig> => {
    const { sealedPassword, ...rest } = s;
    return { ...rest, passwordSet: sealedPassword !== '' };
  };

  async function send(notices: readonly Notice[]): Promise<SendOutcome> {
    const s = await load();
    const started = performance.now();
    const t = noticeText(notices, deps.clock.now(), deps.config.publicUrl);
    const password = s.sealedPassword ? deps.secrets.open(s.sealedPassword, PURPOSE) : '';
    // Implicit TLS when asked or on 465; otherwise STARTTLS is required when asked, never silently skipped.
    // Loaded on first send: installations without email never pay its start-up cost.
    const { default: nodemailer } = await import('nodemailer');
    const transport = nodemailer.createTransport({
      host: s.server,
      port: s.port,
      secure: s.tls || s.port === 465,
      requireTLS: !s.tls && s.startTLS,
      ignoreTLS: !s.tls && !s.startTLS,
      auth: s.username || password ? { user: s.username, pass: password } : undefined,
      connectionTimeout: 10_000,
      socketTimeout: 30_000,
    });
    try {
      const info = await transport.sendMail({
        from: s.from,
        to: s.to.length > 0 ? s.to : [s.from],
        subject: t.subject,
        text: t.text,
        html: t.html,
        headers: { 'X-Svc-Event-ID': notices[0]!.eventId },
      });
      return {
        ok: true,
        status: 250,
        response: String(info.response ?? ''),
        retryable: false,
        durationMs: Math.round(performance.now() - started),
      };
    } catch (err) {
      const e = err as Error & { responseCode?: number; code?: string };
      // SMTP 5xx (and auth failures) will not get better by retrying; 4xx and connection trouble may.
      const permanent = (e.responseCode !== undefined && e.responseCode >= 500) || e.code === 'EAUTH';
      return {
        ok: false,
        status: e.responseCode ?? 0,
        response: '',
        error: `${e.code ? `${e.code}: ` : ''}${e.message}`,
        retryable: !permanent,
        durationMs: Math.round(performance.now() - started),
      };
    } finally {
      transport.close();
    }
  }

  return {
    send,
    async enabled(): Promise<boolean> {
      const s = await load();
      return s.enabled && s.server !== '';
    },
    get: async () => view(await load()),
    async set(actor: Actor, input: z.infer<typeof emailConfigInput>) {
      const old = await load();
      const { password, ...rest } = input;
      const next: Stored = {
        ...rest,
        to: [...new Set(rest.to.map((x) => x.toLowerCase()))],
        sealedPassword: password ? deps.secrets.seal(password, PURPOSE) : old.sealedPassword,
      };
      await store.transaction(async (trx) => {
        await store.setConfig(trx, 'email', next, deps.clock.now());
        await audit.record(trx, actor, {
          event: 'notifications.email.update',
          success: true,
          details: `enabled=${next.enabled} server=${next.server}`,
        });
      });
      return view(next);
    },
  };
}

export type Email = ReturnType<typeof createEmail>;
