import type { RequestSender } from './api.client.js';
import { ApiError, isApiError, isConnectivityError } from './api.errors.js';
import { type ApiRequest, type ApiResponse, type Endpoint, sendRequest, type TransportDeps } from './api.transport.js';

export interface EndpointHealth {
  name: string;
  baseUrl: string;
  healthy: boolean;
  lastError: string | undefined;
  /** When an unhealthy endpoint is tried again. */
  retryAt: number | undefined;
}

interface Member {
  endpoint: Endpoint;
  healthy: boolean;
  lastError: string | undefined;
  retryAt: number | undefined;
}

export interface FailoverOptions extends TransportDeps {
  /** How long an endpoint that failed to connect is skipped before it is re-probed (default 10 s). */
  reprobeMs?: number;
}

/**
 * Sends to the first healthy endpoint; a connectivity failure marks it unhealthy and tries the next.
 * An overloaded member (429, 502-504) is put on a cooldown and the next one is tried. Auth, other HTTP
 * and body errors are answers, not outages: they never fail over. One endpoint = plain client.
 */
export class FailoverSender implements RequestSender {
  private members: Member[] = [];
  private readonly reprobeMs: number;

  constructor(
    endpoints: Endpoint[],
    private readonly deps: FailoverOptions,
  ) {
    this.reprobeMs = deps.reprobeMs ?? 10_000;
    this.setEndpoints(endpoints);
  }

  /** Replace the member list (cluster membership changed), keeping what is known about known members. */
  setEndpoints(endpoints: Endpoint[]): void {
    if (endpoints.length === 0) throw new RangeError('at least one endpoint is required');
    const old = new Map(this.members.map((m) => [m.endpoint.baseUrl, m]));
    this.members = endpoints.map(
      (endpoint) => old.get(endpoint.baseUrl) ?? { endpoint, healthy: true, lastError: undefined, retryAt: undefined },
    );
  }

  health(): EndpointHealth[] {
    return this.members.map((m) => ({
      name: m.endpoint.name,
      baseUrl: m.endpoint.baseUrl,
      healthy: m.healthy,
      lastError: m.lastError,
      retryAt: m.retryAt,
    }));
  }

  async send(req: ApiRequest): Promise<ApiResponse> {
    let lastError: unknown;
    for (const member of this.candidates()) {
      try {
        const res = await sendRequest(member.endpoint, req, this.deps);
        this.markHealthy(member);
        return res;
      } catch (err) {
        if (!isConnectivityError(err) && !isOverloaded(err)) throw err;
        const cooldown = isApiError(err) && err.retryAfterMs !== undefined ? err.retryAfterMs : this.reprobeMs;
        this.markUnhealthy(member, err, Math.max(cooldown, this.reprobeMs));
        lastError = err;
        req.signal?.throwIfAborted();
      }
    }
    throw lastError ?? new ApiError('connectivity', 'no endpoint available');
  }

  /** Probe unhealthy members that are due: any HTTP answer (even 401) proves the member is reachable again. */
  async reprobe(signal?: AbortSignal): Promise<void> {
    const now = this.deps.clock.now();
    const due = this.members.filter((m) => !m.healthy && (m.retryAt ?? 0) <= now);
    await Promise.all(
      due.map(async (m) => {
        try {
          await sendRequest(m.endpoint, { path: '/version', signal }, this.deps);
          this.markHealthy(m);
        } catch (err) {
          if (isConnectivityError(err)) this.markUnhealthy(m, err);
          else this.markHealthy(m);
        }
      }),
    );
  }

  /** Healthy members first, then unhealthy ones that are due for a re-probe; if none is left, all of them. */
  private candidates(): Member[] {
    const now = this.deps.clock.now();
    const healthy = this.members.filter((m) => m.healthy);
    const due = this.members.filter((m) => !m.healthy && (m.retryAt ?? 0) <= now);
    const list = [...healthy, ...due];
    return list.length > 0 ? list : [...this.members].sort((a, b) => (a.retryAt ?? 0) - (b.retryAt ?? 0));
  }

  private markHealthy(m: Member): void {
    m.healthy = true;
    m.lastError = undefined;
    m.retryAt = undefined;
  }

  private markUnhealthy(m: Member, err: unknown, forMs = this.reprobeMs): void {
    m.healthy = false;
    m.lastError = err instanceof Error ? err.message : String(err);
    m.retryAt = this.deps.clock.now() + forMs;
  }
}

/** A member shedding load; 500 is not one of these (hv answers 500 for guest-agent errors, 595 for offline nodes). */
const isOverloaded = (err: unknown): boolean =>
  isApiError(err) &&
  (err.category === 'rate_limited' || (err.status !== undefined && err.status >= 502 && err.status <= 504));
