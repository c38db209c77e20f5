import type { oidcSettings, oidcSettingsInput } from '@svc/contract';
import { AppError, type CookieOptions } from '@svc/platform';
import type * as OidcLib from 'openid-client';
import type { z } from 'zod';
import type { Principal } from '../../platform/http/principal.js';
import type { AreaDeps } from '../area.js';
import type { Actor, AuditArea } from '../audit/index.js';
import type { AuthArea } from '../auth/index.js';
import type { SecurityStore } from './security.store.js';

const SETTINGS_KEY = 'security.oidc';
export const FLOW_COOKIE = 'svc_oidc';
const FLOW_MS = 10 * 60_000;
const SECRET_PURPOSE = 'oidc.client_secret';

// Loaded on first use: most installations never configure single sign-on, so start-up does not pay for it.
let oidcLib: Promise<typeof OidcLib> | undefined;
const loadOidc = () => {
  oidcLib ??= import('openid-client');
  return oidcLib;
};

type Settings = Omit<z.output<typeof oidcSettings>, 'clientSecretSet'> & { sealedSecret: string | null };
type FlowState = { state: string; nonce: string; verifier: string; returnTo: string; at: number };

const defaults: Settings = {
  enabled: false,
  issuerUrl: '',
  clientId: '',
  sealedSecret: null,
  redirectUrl: '',
  scopes: ['openid', 'profile', 'email'],
  usernameClaim: 'preferred_username',
  groupsClaim: 'groups',
  allowedGroups: [],
  adminGroups: [],
};

export interface FlowIo {
  cookies: Readonly<Record<string, string | undefined>>;
  setCookie(name: string, value: string, opts: CookieOptions): void;
  clearCookie(name: string, opts: CookieOptions): void;
  secure: boolean;
}

export type CallbackOutcome =
  | { kind: 'session'; username: string; returnTo: string; principal: Pick<Principal, 'isAdmin'> }
  | { kind: 'refused'; status: number; title: string; message: string };

function claimList(v: unknown): string[] {
  if (Array.isArray(v)) return v.filter((x): x is string => typeof x === 'string');
  return typeof v === 'string' ? v.split(/[\s,]+/).filter(Boolean) : [];
}

export function createOidc(deps: AreaDeps, store: SecurityStore, auth: AuthArea, audit: AuditArea) {
  let cached: { key: string; config: OidcLib.Configuration } | undefined;

  async function read(): Promise<Settings> {
    return { ...defaults, ...((await store.readSetting<Settings>(SETTINGS_KEY)) ?? {}) };
  }

  function view(s: Settings): z.input<typeof oidcSettings> {
    const { sealedSecret, ...rest } = s;
    return { ...rest, clientSecretSet: sealedSecret !== null };
  }

  function redirectUrl(s: Settings): string {
    if (s.redirectUrl) return s.redirectUrl;
    const base = deps.config.publicUrl ?? `http://localhost:${deps.config.port}`;
    return `${base.replace(/\/$/, '')}/api/oidc/callback`;
  }

  async function discover(s: Settings): Promise<OidcLib.Configuration> {
    const key = JSON.stringify([s.issuerUrl, s.clientId, s.sealedSecret]);
    if (cached?.key === key) return cached.config;
    const secret = s.sealedSecret ? deps.secrets.open(s.sealedSecret, SECRET_PURPOSE) : undefined;
    const insecure = new URL(s.issuerUrl).protocol === 'http:';
    const oidc = await loadOidc();
    const config = await oidc.discovery(new URL(s.issuerUrl), s.clientId, secret, undefined, {
      execute: insecure ? [oidc.allowInsecureRequests] : [],
    });
    cached = { key, config };
    return config;
  }

  return {
    enabled: async () => (await read()).enabled,
    getSettings: async () => view(await read()),

    async setSettings(actor: Actor, input: z.output<typeof oidcSettingsInput>) {
      const prev = await read();
      const { clientSecret, ...rest } = input;
      const next: Settings = {
        ...rest,
        sealedSecret:
          clientSecret === undefined
            ? prev.sealedSecret
            : clientSecret === ''
              ? null
              : deps.secrets.seal(clientSecret, SECRET_PURPOSE),
      };
      await deps.db.db.transaction().execute(async (trx) => {
        await store.writeSetting(trx, SETTINGS_KEY, next, deps.clock.now());
        await audit.record(trx, actor, {
          event: 'oidc_config_changed',
          success: true,
          details: `enabled ${next.enabled}, issuer ${next.issuerUrl || '(none)'}${clientSecret !== undefined ? ', client secret changed' : ''}`,
        });
      });
      cached = undefined;
      return view(next);
    },

    /** Returns the provider URL to redirect to; the PKCE verifier, state and nonce travel sealed in a cookie. */
    async beginLogin(io: FlowIo, returnTo: string | undefined): Promise<string> {
      const s = await read();
      if (!s.enabled) throw new AppError('not_found', 'Single sign-on is not enabled on this svc.');
      const config = await discover(s);
      const oidc = await loadOidc();
      const flow: FlowState = {
        state: oidc.randomState(),
        nonce: oidc.randomNonce(),
        verifier: oidc.randomPKCECodeVerifier(),
        returnTo: returnTo ?? '/',
        at: deps.clock.now(),
      };
      const url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: redirectUrl(s),
        scope: s.scopes.join(' '),
        code_challenge: await oidc.calculatePKCECodeChallenge(flow.verifier),
        code_challenge_method: 'S256',
        state: flow.state,
        nonce: flow.nonce,
      });
      io.setCookie(FLOW_COOKIE, deps.secrets.seal(JSON.stringify(flow), 'oidc.flow'), {
        httpOnly: true,
        secure: io.secure,
        sameSite: 'lax',
        path: '/api/oidc',
        maxAge: FLOW_MS / 1000,
      });
      return url.href;
    },

    async finishLogin(io: FlowIo, actor: Actor, query: Record<string, unknown>): Promise<CallbackOutcome> {
      const s = await read();
      if (!s.enabled)
        return {
          kind: 'refused',
          status: 404,
          title: 'Single sign-on is off',
          message: 'Single sign-on is not enabled on this svc.',
        };
      const sealed = io.cookies[FLOW_COOKIE];
      io.clearCookie(FLOW_COOKIE, { path: '/api/oidc' });
      let flow: FlowState;
      try {
        flow = JSON.parse(deps.secrets.open(sealed ?? '', 'oidc.flow')) as FlowState;
      } catch {
        return {
          kind: 'refused',
          status: 400,
          title: 'Login expired',
          message: 'This sign-in link is not valid in this browser any more. Start again from the login page.',
        };
      }
      if (deps.clock.now() - flow.at > FLOW_MS) {
        return {
          kind: 'refused',
          status: 400,
          title: 'Login expired',
          message: 'The sign-in took longer than 10 minutes. Start again from the login page.',
        };
      }
      const current = new URL(redirectUrl(s));
      for (const [k, v] of Object.entries(query)) if (typeof v === 'string') current.searchParams.set(k, v);
      let claims: Record<string, unknown>;
      try {
        const config = await discover(s);
        const oidc = await loadOidc();
        const tokens = await oidc.authorizationCodeGrant(config, current, {
          pkceCodeVerifier: flow.verifier,
          expectedState: flow.state,
          expectedNonce: flow.nonce,
          idTokenExpected: true,
        });
        claims = { ...(tokens.claims() ?? {}) };
        if (claims[s.groupsClaim] === undefined || claims[s.usernameClaim] === undefined) {
          const info = await oidc.fetchUserInfo(config, tokens.access_token, String(claims.sub));
          claims = { ...info, ...claims };
        }
      } catch (err) {
        deps.log.warn({ err: (err as Error).message }, 'OIDC login failed');
        return {
          kind: 'refused',
          status: 400,
          title: 'Sign-in failed',
          message: `The identity provider's answer could not be accepted: ${(err as Error).message}`,
        };
      }
      const username = String(claims[s.usernameClaim] ?? claims.sub);
      const groups = claimList(claims[s.groupsClaim]);
      const allowed = s.allowedGroups.length === 0 || groups.some((g) => s.allowedGroups.includes(g));
      const isAdmin = groups.some((g) => s.adminGroups.includes(g));
      const who = { ...actor, user: username };
      if (!allowed) {
        await deps.db.db.transaction().execute((trx) =>
          audit.record(trx, who, {
            event: 'oidc_login',
            success: false,
            details: `not in allowed groups (has: ${groups.join(',') || 'none'})`,
          }),
        );
        return {
          kind: 'refused',
          status: 403,
          title: 'Access refused',
          message: `You signed in as ${username}, but you are not a member of a group allowed to use svc (${s.allowedGroups.join(', ')}). Ask your administrator to add you to one of them.`,
        };
      }
      const session = await deps.db.db.transaction().execute(async (trx) => {
        const issued = await auth.service.startSession(trx, {
          username,
          isAdmin,
          authMethod: 'oidc',
          rememberMe: false,
        });
        await audit.record(trx, who, {
          event: 'oidc_login',
          success: true,
          details: `groups ${groups.join(',') || 'none'}${isAdmin ? ', admin' : ''}`,
        });
        return issued;
      });
      auth.service.setSessionCookies(
        { reply: { cookie: io.setCookie, clearCookie: io.clearCookie }, protocol: io.secure ? 'https' : 'http' },
        session,
      );
      return { kind: 'session', username, returnTo: flow.returnTo, principal: { isAdmin } };
    },
  };
}

export type Oidc = ReturnType<typeof createOidc>;
