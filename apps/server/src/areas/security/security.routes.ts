import { securityRoutes as r } from '@svc/contract';
import type { Handlers, RequestContext } from '@svc/platform';
import { isDirectLoopback } from '../../platform/http/client.js';
import type { Caller } from '../../platform/http/principal.js';
import { actorOf } from '../audit/index.js';
import type { Oidc } from './security.oidc.js';
import type { Recovery } from './security.recovery.js';
import type { SecurityService } from './security.service.js';
import type { Setup } from './security.setup.js';
import type { Tokens } from './security.tokens.js';

export interface SecurityParts {
  service: SecurityService;
  tokens: Tokens;
  setup: Setup;
  recovery: Recovery;
  oidc: Oidc;
}

function headerOf(ctx: RequestContext<Caller>, name: string): string | undefined {
  const v = ctx.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

const recoveryReq = (ctx: RequestContext<Caller>) => ({
  direct: isDirectLoopback(ctx.ip, ctx.headers),
  headers: ctx.headers,
});

function flowIo(ctx: RequestContext<Caller>) {
  return {
    cookies: ctx.cookies,
    setCookie: ctx.reply.cookie,
    clearCookie: ctx.reply.clearCookie,
    secure: ctx.protocol === 'https',
  };
}

function page(title: string, message: string): string {
  const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>svc: ${esc(title)}</title></head>\n<body><h1>${esc(title)}</h1><p>${esc(message)}</p><p><a href="/">Back to svc</a></p></body></html>\n`;
}

export function securityHandlers(p: SecurityParts): Handlers<typeof r, Caller> {
  return {
    getSecurityStatus: (ctx) => p.service.getStatus(ctx.principal),
    changePassword: (ctx, { body }) =>
      p.service.changePassword(ctx.principal, actorOf(ctx, r.changePassword.path), body),
    listApiTokens: () => p.tokens.listTokens(),
    createApiToken: (ctx, { body }) => p.tokens.createToken(ctx.principal, actorOf(ctx, r.createApiToken.path), body),
    revokeApiToken: async (ctx, { params }) => {
      await p.tokens.revokeToken(actorOf(ctx, r.revokeApiToken.path), params.id);
      return undefined;
    },
    getRecoveryStatus: (ctx) => p.recovery.getStatus(recoveryReq(ctx)),
    recoveryAction: (ctx, { body }) =>
      p.recovery.act(recoveryReq(ctx), actorOf(ctx, r.recoveryAction.path), body.action),
    resetLockout: (ctx, { body }) => p.service.resetLockout(actorOf(ctx, r.resetLockout.path), body.identifier),
    regenerateToken: (ctx) => p.tokens.regenerateToken(actorOf(ctx, r.regenerateToken.path)),
    validateToken: (_ctx, { body }) => p.tokens.validateToken(body.token),
    validateBootstrapToken: (ctx, { body }) => {
      p.setup.assertBootstrap(headerOf(ctx, 'x-setup-token') ?? body.token);
      return undefined;
    },
    quickSetup: (ctx, { body }) =>
      p.setup.quickSetup(
        ctx.principal,
        actorOf(ctx, r.quickSetup.path, body.username),
        headerOf(ctx, 'x-setup-token'),
        body,
      ),
    applyRestart: (ctx) => p.service.applyRestart(actorOf(ctx, r.applyRestart.path)),
    getOidcSettings: () => p.oidc.getSettings(),
    setOidcSettings: (ctx, { body }) => p.oidc.setSettings(actorOf(ctx, r.setOidcSettings.path), body),
    oidcLogin: async (ctx, { query }) => {
      ctx.reply.redirect(await p.oidc.beginLogin(flowIo(ctx), query.returnTo), 302);
      return '';
    },
    oidcCallback: async (ctx, { query }) => {
      const out = await p.oidc.finishLogin(flowIo(ctx), actorOf(ctx, r.oidcCallback.path), query);
      if (out.kind === 'session') {
        ctx.reply.redirect(out.returnTo, 302);
        return '';
      }
      ctx.reply.status(out.status);
      return page(out.title, out.message);
    },
  };
}
