import type { RouteDef } from '@svc/contract';
import { AppError, type Gate } from '@svc/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Caller, Principal } from '../platform/http/principal.js';
import type { WelcomeData } from './realtime.messages.js';

/** When `?token=` counts as a credential: only on a WebSocket upgrade (/ws), or on every request (socket.io). */
export type QueryTokenRule = 'upgrade' | 'always';

function isUpgrade(req: FastifyRequest): boolean {
  return String(req.headers.upgrade ?? '').toLowerCase() === 'websocket';
}

/**
 * Browsers cannot set headers on a WebSocket, so a token may ride in `?token=`; it is moved into
 * X-API-Token so the one gate decides. An explicit header always wins over the query.
 */
function hoistQueryToken(req: FastifyRequest, rule: QueryTokenRule): void {
  const token = (req.query as Record<string, unknown> | undefined)?.token;
  if (typeof token !== 'string' || token === '') return;
  if (rule === 'upgrade' && !isUpgrade(req)) return;
  if (req.headers['x-api-token'] || req.headers.authorization) return;
  req.headers['x-api-token'] = token;
}

/**
 * The access check of a realtime route, run as a preHandler so a refused upgrade gets its 401/403 JSON
 * answer before the protocol switch. Remembers who connected, for the welcome message.
 */
export function upgradeGuard(gate: Gate<Caller>, route: RouteDef, rule: QueryTokenRule) {
  const callers = new WeakMap<object, Principal>();
  return {
    preHandler: async (req: FastifyRequest, reply: FastifyReply): Promise<void> => {
      hoistQueryToken(req, rule);
      const p = await gate(req, reply, route);
      if (p?.kind === 'session') checkOrigin(req);
      if (p) callers.set(req.raw, p);
    },
    welcome(raw: object): WelcomeData {
      const p = callers.get(raw);
      return { message: 'Connected to svc live updates', orgId: p?.orgId ?? 'default', authMethod: methodOf(p) };
    },
  };
}

/**
 * A browser sends the session cookie with a WebSocket opened by any site it allows, so a cookie-authenticated
 * upgrade must come from svc's own origin (cross-site WebSocket hijacking). Tokens are not ambient: no check.
 */
function checkOrigin(req: FastifyRequest): void {
  const origin = req.headers.origin;
  if (!origin) return;
  let host: string | undefined;
  try {
    host = new URL(origin).host;
  } catch {
    host = undefined;
  }
  if (host !== req.headers.host) {
    throw new AppError('forbidden', `Cross-origin live connection refused: ${origin} is not this server's origin.`);
  }
}

function methodOf(p: Principal | undefined): string {
  if (!p) return 'none';
  return p.kind === 'token' ? 'api_token' : p.kind === 'recovery' ? 'recovery_session' : 'session';
}
