import { AppError, type RequestContext } from '@svc/platform';
import { randomBase64Url, sha256Hex } from '../../platform/crypto/index.js';
import { DEFAULT_ORG } from '../../platform/db/index.js';
import type { Caller } from '../../platform/http/principal.js';
import type { AreaDeps } from '../area.js';
import { renderSetupScript } from './nodes.script.js';
import type { NodesService } from './nodes.service.js';
import type { NodesStore } from './nodes.store.js';

const TOKEN_TTL_MS = 15 * 60_000;
type Ctx = RequestContext<Caller>;

const refused = () =>
  new AppError('unauthorized', 'The setup token is unknown, used or expired: ask svc for a new setup URL.');

export function createSetupService(deps: AreaDeps, store: NodesStore, nodes: NodesService) {
  function baseUrl(ctx: Ctx): string {
    if (deps.config.publicUrl) return deps.config.publicUrl.replace(/\/+$/, '');
    const host = typeof ctx.headers.host === 'string' ? ctx.headers.host : `localhost:${deps.config.port}`;
    return `${ctx.protocol}://${host}`;
  }

  async function valid(token: string) {
    const row = await store.getSetupToken(sha256Hex(token));
    if (!row || row.used_at !== null || Number(row.expires_at) <= deps.clock.now()) throw refused();
    return row;
  }

  return {
    async createSetupUrl(ctx: Ctx, body: { type: 'hv' | 'bak'; host?: string }) {
      const now = deps.clock.now();
      await store.pruneSetupTokens(now);
      const token = randomBase64Url(24);
      await store.insertSetupToken({
        org_id: ctx.principal?.orgId ?? DEFAULT_ORG,
        token_hash: sha256Hex(token),
        node_type: body.type,
        expires_at: now + TOKEN_TTL_MS,
        used_at: null,
        created_by: ctx.principal?.username ?? 'unknown',
      });
      const params = new URLSearchParams({ auth_token: token });
      if (body.host) params.set('host', body.host);
      const url = `${baseUrl(ctx)}/api/setup-script?${params}`;
      return { token, url, command: `curl -fsSL '${url}' | bash`, expires: new Date(now + TOKEN_TTL_MS).toISOString() };
    },

    async getScript(ctx: Ctx, query: { auth_token: string; host?: string }): Promise<string> {
      const row = await valid(query.auth_token);
      ctx.reply.header('cache-control', 'no-store');
      return renderSetupScript({
        svcUrl: baseUrl(ctx),
        setupToken: query.auth_token,
        type: row.node_type as 'hv' | 'bak',
        host: query.host,
      });
    },

    /** Consumes the token first (atomically), so two racing registrations cannot both use it. */
    async autoRegister(
      ctx: Ctx,
      body: {
        type: 'hv' | 'bak';
        host: string;
        name?: string;
        tokenName: string;
        tokenValue: string;
        fingerprint?: string;
        setupToken?: string;
      },
    ) {
      const header = ctx.headers['x-setup-token'];
      const token = typeof header === 'string' && header ? header : body.setupToken;
      if (!token) throw refused();
      const row = await valid(token);
      if (row.node_type !== body.type) {
        throw new AppError('bad_request', `This setup token was made for a ${row.node_type} node, not ${body.type}.`);
      }
      const hash = sha256Hex(token);
      const won = await store.db.transaction().execute((trx) => store.consumeSetupToken(hash, deps.clock.now(), trx));
      if (!won) throw refused();
      const fingerprint =
        body.fingerprint && /^([0-9A-Fa-f]{2}:?){32}$/.test(body.fingerprint) ? body.fingerprint : undefined;
      try {
        const view = await nodes.registerFromScript(
          row.org_id,
          {
            type: body.type,
            name: body.name ?? new URL(/^[a-z]+:\/\//i.test(body.host) ? body.host : `https://${body.host}`).hostname,
            host: body.host,
            tokenName: body.tokenName,
            tokenValue: body.tokenValue,
            fingerprint,
            verifySSL: true,
          },
          ctx,
        );
        return { success: true as const, nodeId: view.id, message: `Registered ${view.name}; svc is polling it now.` };
      } catch (err) {
        await store.db.updateTable('setup_tokens').set({ used_at: null }).where('token_hash', '=', hash).execute();
        throw err;
      }
    },
  };
}
