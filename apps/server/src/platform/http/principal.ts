import type { Scope } from '@svc/contract';

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
}

export type Caller = Principal | null;

/** Finds the caller's credentials; null when there are none. Throws AppError 401 for bad explicit ones. */
export type Authenticator = (req: {
  headers: Record<string, string | string[] | undefined>;
  cookies?: Record<string, string | undefined>;
  ip: string;
}) => Promise<Principal | null>;

/** Until access control is configured nobody is authenticated: every non-public route answers 401. */
export const nobody: Authenticator = async () => null;
