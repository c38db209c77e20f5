import type { Clock } from '@svc/platform';
import { ApiError, isApiError } from './api.errors.js';
import type { ApiRequest, ApiResponse, QueryValue } from './api.transport.js';

/** API token (hv, bak) or user + password exchanged for a ticket (all kinds; the only way for mail). */
export type ApiCredentials =
  | { type: 'token' /** `user@realm!tokenid` */; tokenId: string; secret: string }
  | { type: 'password' /** `user@realm` */; username: string; password: string; realm?: string };

/** How one product authenticates: its token header (if any) and its ticket cookie. */
export interface AuthStyle {
  tokenHeader?: (tokenId: string, secret: string) => string;
  cookie: string;
}

/** Anything that can deliver a request: one endpoint, or a cluster with failover. */
export interface RequestSender {
  send(req: ApiRequest): Promise<ApiResponse>;
}

export interface ApiClientOptions {
  clock: Clock;
  /** Tickets live 2 h; renew well before (default 90 min). */
  ticketRefreshMs?: number;
}

interface Ticket {
  ticket: string;
  csrf: string;
  at: number;
}

const TICKET_REFRESH_MS = 90 * 60_000;

/** Transport with authentication: token header, or ticket cookie + CSRF header on writes, renewed on time. */
export class ApiClient {
  private ticket: Ticket | undefined;
  private login: Promise<Ticket> | undefined;
  private readonly refreshMs: number;
  /** Token auth never changes: one header object for every request. */
  private readonly tokenHeaders: Record<string, string> | undefined;

  constructor(
    private readonly sender: RequestSender,
    private readonly style: AuthStyle,
    private readonly credentials: ApiCredentials,
    private readonly opts: ApiClientOptions,
  ) {
    this.refreshMs = opts.ticketRefreshMs ?? TICKET_REFRESH_MS;
    if (credentials.type === 'token' && style.tokenHeader)
      this.tokenHeaders = { authorization: style.tokenHeader(credentials.tokenId, credentials.secret) };
  }

  /** GET and return the `data` of the envelope. */
  async get(path: string, query?: Record<string, QueryValue>, signal?: AbortSignal): Promise<unknown> {
    if (this.tokenHeaders) return (await this.sender.send({ path, query, signal, headers: this.tokenHeaders })).data;
    return (await this.request({ method: 'GET', path, query, signal })).data;
  }

  async request(req: ApiRequest): Promise<ApiResponse> {
    if (this.tokenHeaders) return this.sender.send({ ...req, headers: { ...req.headers, ...this.tokenHeaders } });
    const headers = await this.authHeaders(req.method ?? 'GET', req.signal);
    try {
      return await this.sender.send({ ...req, headers: { ...req.headers, ...headers } });
    } catch (err) {
      // An expired or revoked ticket answers 401: log in once more, then give up.
      if (this.credentials.type !== 'password' || !isApiError(err) || err.status !== 401) throw err;
      this.ticket = undefined;
      const again = await this.authHeaders(req.method ?? 'GET', req.signal);
      return this.sender.send({ ...req, headers: { ...req.headers, ...again } });
    }
  }

  /** Drop the ticket so the next call logs in again. */
  invalidate(): void {
    this.ticket = undefined;
  }

  private async authHeaders(method: string, signal?: AbortSignal): Promise<Record<string, string>> {
    const c = this.credentials;
    // Token credentials with a token header never get here (see tokenHeaders).
    if (c.type === 'token') throw new ApiError('auth', 'this product has no API tokens; use a user and password');
    const t = await this.currentTicket(signal);
    const headers: Record<string, string> = { cookie: `${this.style.cookie}=${encodeURIComponent(t.ticket)}` };
    if (method !== 'GET') headers.CSRFPreventionToken = t.csrf;
    return headers;
  }

  private async currentTicket(signal?: AbortSignal): Promise<Ticket> {
    const now = this.opts.clock.now();
    if (this.ticket && now - this.ticket.at < this.refreshMs) return this.ticket;
    if (!this.login) {
      this.login = this.fetchTicket(signal).finally(() => {
        this.login = undefined;
      });
    }
    this.ticket = await this.login;
    return this.ticket;
  }

  private async fetchTicket(signal?: AbortSignal): Promise<Ticket> {
    const c = this.credentials as Extract<ApiCredentials, { type: 'password' }>;
    const form: Record<string, string> = { username: c.username, password: c.password };
    if (c.realm) form.realm = c.realm;
    const at = this.opts.clock.now();
    const { data } = await this.sender.send({ method: 'POST', path: '/access/ticket', form, signal });
    const d = (data ?? {}) as { ticket?: unknown; CSRFPreventionToken?: unknown; NeedTFA?: unknown };
    if (d.NeedTFA) throw new ApiError('auth', 'the account requires a second factor; use an API token');
    if (typeof d.ticket !== 'string' || typeof d.CSRFPreventionToken !== 'string') {
      throw new ApiError('malformed', 'ticket response without ticket or CSRF token', { path: '/access/ticket' });
    }
    return { ticket: d.ticket, csrf: d.CSRFPreventionToken, at };
  }
}
