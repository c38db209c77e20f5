import { authRoutes } from '@svc/contract';
import type { Handlers } from '@svc/platform';
import type { Caller } from '../../platform/http/principal.js';
import { actorOf } from '../audit/index.js';
import type { AuthService } from './auth.service.js';

export function authHandlers(service: AuthService): Handlers<typeof authRoutes, Caller> {
  return {
    login: (ctx, { body }) => service.login(ctx, actorOf(ctx, authRoutes.login.path, body.username), body),
    logout: async (ctx) => {
      await service.logout(ctx, actorOf(ctx, authRoutes.logout.path), ctx.principal);
      return undefined;
    },
  };
}
