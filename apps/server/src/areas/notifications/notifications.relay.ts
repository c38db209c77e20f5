import { execFile } from 'node:child_process';
import type { relayConfig, relayConfigInput } from '@svc/contract';
import type { z } from 'zod';
import type { AreaDeps } from '../area.js';
import type { Actor, AuditArea } from '../audit/index.js';
import type { HttpSender } from './notifications.http.js';
import type { Notice } from './notifications.model.js';
import { classifyHttp, type SendOutcome } from './notifications.outcome.js';
import type { TargetGuard } from './notifications.ssrf.js';
import type { NotificationStore } from './notifications.store.js';
import { noticeText } from './notifications.text.js';

type Stored = Omit<z.infer<typeof relayConfigInput>, 'apiKey'> & { sealedApiKey: string; sealedTargets: string };
const PURPOSE = 'notifications.relay';
const defaults: Stored = {
  enabled: false,
  mode: 'cli',
  targets: [],
  serverUrl: '',
  configKey: '',
  apiKeyHeader: 'X-API-KEY',
  timeoutSeconds: 15,
  sealedApiKey: '',
  sealedTargets: '',
};

/** Apprise URLs carry credentials (`json://user:pass@host`, `tgram://token/...`): show scheme and host only. */
export function maskTarget(t: string): string {
  return t.replace(
    /^([a-z0-9+.-]+:\/\/)([^/@]*@)?([^/?]*)(.*)$/i,
    (_m, s: string, cred: string | undefined, host: string, rest: string) =>
      `${s}${cred ? '***@' : ''}${host}${rest ? '/***' : ''}`,
  );
}

export function createRelay(
  deps: AreaDeps,
  store: NotificationStore,
  audit: AuditArea,
  http: HttpSender,
  guard: TargetGuard,
) {
  const load = async (): Promise<Stored> => {
    const s = { ...defaults, ...((await store.getConfig('relay')) as Partial<Stored> | undefined) };
    // Targets are sealed at rest because they embed credentials.
    return {
      ...s,
      targets: s.sealedTargets ? (JSON.parse(deps.secrets.open(s.sealedTargets, PURPOSE)) as string[]) : [],
    };
  };
  const view = (s: Stored): z.input<typeof relayConfig> => ({
    enabled: s.enabled,
    mode: s.mode,
    targets: s.targets.map(maskTarget),
    serverUrl: s.serverUrl,
    configKey: s.configKey,
    apiKeySet: s.sealedApiKey !== '',
    apiKeyHeader: s.apiKeyHeader,
    timeoutSeconds: s.timeoutSeconds,
  });

  function runCli(s: Stored, title: string, body: string, type: string): Promise<SendOutcome> {
    const started = performance.now();
    // execFile, never a shell: titles and bodies are alert text. `apprise` from PATH, not a configurable path.
    const args = ['-t', title, '-b', body, '-n', type, ...s.targets];
    return new Promise((resolve) => {
      execFile('apprise', args, { timeout: s.timeoutSeconds * 1000, maxBuffer: 1 << 20 }, (err, stdout, stderr) => {
        const durationMs = Math.round(performance.now() - started);
        if (!err) return resolve({ ok: true, status: 0, response: stdout.slice(0, 1000), retryable: true, durationMs });
        const code = typeof err.code === 'number' ? err.code : 0;
        const why = (stderr || stdout || err.message).trim().split('\n').slice(-3).join(' ').slice(0, 500);
        resolve({
          ok: false,
          status: code,
          response: '',
          error: `apprise failed (${err.code ?? err.signal}): ${why}`,
          retryable: err.code !== 'ENOENT',
          durationMs,
        });
      });
    });
  }

  async function runHttp(s: Stored, title: string, body: string, type: string, eventId: string): Promise<SendOutcome> {
    const started = performance.now();
    const url = `${s.serverUrl.replace(/\/+$/, '')}/notify${s.configKey ? `/${encodeURIComponent(s.configKey)}` : ''}`;
    await guard.checkUrl(url);
    const headers: Record<string, string> = { 'Content-Type': 'application/json', 'X-Svc-Event-ID': eventId };
    if (s.sealedApiKey) headers[s.apiKeyHeader] = deps.secrets.open(s.sealedApiKey, `${PURPOSE}.key`);
    const payload = { title, body, type, ...(s.targets.length ? { urls: s.targets.join(',') } : {}) };
    const r = await http.send({ url, method: 'POST', headers, body: JSON.stringify(payload), eventId });
    const durationMs = Math.round(performance.now() - started);
    if (r.status === 0) return { ok: false, status: 0, response: '', error: r.error, retryable: r.network, durationMs };
    const cls = classifyHttp(r.status);
    return {
      ...cls,
      status: r.status,
      response: r.body.slice(0, 1000),
      error: cls.ok ? undefined : `HTTP ${r.status}: ${r.body.slice(0, 300)}`,
      retryAfterMs: r.retryAfterMs,
      durationMs,
    };
  }

  return {
    async send(notices: readonly Notice[]): Promise<SendOutcome> {
      const s = await load();
      const t = noticeText(notices, deps.clock.now(), deps.config.publicUrl);
      return s.mode === 'cli'
        ? runCli(s, t.subject, t.text, t.type)
        : runHttp(s, t.subject, t.text, t.type, notices[0]!.eventId);
    },
    async enabled(): Promise<boolean> {
      const s = await load();
      return s.enabled && (s.mode === 'cli' ? s.targets.length > 0 : s.serverUrl !== '');
    },
    get: async () => view(await load()),
    async set(actor: Actor, input: z.infer<typeof relayConfigInput>) {
      const old = await load();
      const { apiKey, targets, ...rest } = input;
      if (rest.mode === 'http' && rest.serverUrl) await guard.checkUrl(rest.serverUrl);
      // Masked targets sent back keep the stored target at the same position.
      const merged = targets.map((t, i) =>
        t.includes('***') && old.targets[i] && maskTarget(old.targets[i]!) === t ? old.targets[i]! : t,
      );
      const unique = [...new Map(merged.map((t) => [t.toLowerCase(), t])).values()];
      const next: Stored = {
        ...rest,
        targets: unique,
        sealedTargets: deps.secrets.seal(JSON.stringify(unique), PURPOSE),
        sealedApiKey: apiKey ? deps.secrets.seal(apiKey, `${PURPOSE}.key`) : old.sealedApiKey,
      };
      const { targets: _plain, ...persisted } = next;
      await store.transaction(async (trx) => {
        await store.setConfig(trx, 'relay', persisted, deps.clock.now());
        await audit.record(trx, actor, {
          event: 'notifications.relay.update',
          success: true,
          details: `enabled=${next.enabled} mode=${next.mode}`,
        });
      });
      return view(next);
    },
  };
}

export type Relay = ReturnType<typeof createRelay>;
