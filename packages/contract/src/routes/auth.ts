import { z } from 'zod';
import { defineRoute } from '../route.js';

export const loginBody = z
  .object({
    username: z.string().min(1).max(128),
    password: z.string().min(1).max(1024),
    rememberMe: z.boolean().default(false),
  })
  .meta({ id: 'LoginRequest' });

export const loginResult = z
  .object({
    success: z.literal(true),
    username: z.string(),
    expiresAt: z.string().describe('ISO 8601; the expiry slides forward with use'),
    csrfToken: z.string().describe('Also set as the svc_csrf cookie; send it as X-CSRF-Token on writes'),
  })
  .meta({ id: 'LoginResult' });

export const authRoutes = {
  login: defineRoute({
    method: 'POST',
    path: '/api/login',
    summary: 'Log in with username and password; sets the svc_session and svc_csrf cookies',
    tag: 'Security',
    access: 'public',
    body: loginBody,
    response: loginResult,
    rateLimit: 'auth',
    csrfExempt: true,
  }),
  logout: defineRoute({
    method: 'POST',
    path: '/api/logout',
    summary: 'End the current session and clear its cookies',
    tag: 'Security',
    access: 'auth',
    responseKind: 'empty',
    rateLimit: 'auth',
  }),
} as const;
