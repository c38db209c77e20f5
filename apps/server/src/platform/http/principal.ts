import type { Scope } from '@svc/contract';
import type { CookieOptions } from '@svc/platform';

/** Who is calling, once credentials are checked. Handlers receive it; they never re-check access. */
export interface Principal {
  kind: 'session' | 'token' | 'recovery';
  username: string;
  isAdmin: boolean;
  /** A session user holds every scope; a token holds what it was created with. */
  scopes: readonly Scope[];
  orgId: string;
  tokenId?: string;
  sessionId?: string;
  /** SHA-256 of the session's CSRF value: the gate compares the X-CSRF-Token header against it. */
  csrfHash?: string;
  /** How a session was opened. */
  authMethod?: 'password' | 'oidc';
  /** Unix ms when a session ends unless used again. */
  expiresAt?: number;
}

export type Caller = Principal | null;

export interface AuthRequest {
  headers: Record<string, string | string[] | undefined>;
  cookies?: Record<string, string | undefined>;
  ip: string;
  /** The TCP peer is loopback and no proxy header says the request came from elsewhere. */
  direct: boolean;
  protocol: 'http' | 'https';
  /** Lets a sliding session renew its cookie. */
  setCookie?(name: string, value: string, opts: CookieOptions): void;
}

/**
 * Finds the caller's credentials; null when there are none. Rejects with AppError 401 for bad explicit ones.
 * Answers synchronously when there is nothing to look up (no token, no session cookie), which is most probes.
 */
export type Authenticator = (req: AuthRequest) => Principal | null | Promise<Principal | null>;

/** Until access control is configured nobody is authenticated: every non-public route answers 401. */
export const nobody: Authenticator = () => null;
