import { type ApiErrorCategory, categorize } from './api.errors.js';

/** Retry policy of the monitoring loop (reference: backoff 5 s ×2 ±20 % ≤ 5 min, breaker at 3, DLQ at 5). */
export interface PollPolicyConfig {
  baseBackoffMs: number;
  maxBackoffMs: number;
  /** ± fraction applied to the backoff delay. */
  jitter: number;
  breakerThreshold: number;
  deadLetterAfter: number;
  deadLetterRetryMs: number;
}

export const defaultPollPolicy: PollPolicyConfig = {
  baseBackoffMs: 5_000,
  maxBackoffMs: 5 * 60_000,
  jitter: 0.2,
  breakerThreshold: 3,
  deadLetterAfter: 5,
  deadLetterRetryMs: 30 * 60_000,
};

export type BreakerState = 'closed' | 'open' | 'half_open';

export interface PollError {
  at: number;
  message: string;
  category: ApiErrorCategory | 'internal';
}

export interface BreakerInfo {
  state: BreakerState;
  since: number | undefined;
  lastTransition: number | undefined;
  retryAt: number | undefined;
  failureCount: number;
}

export interface DeadLetterInfo {
  reason: 'max_retry_attempts' | 'permanent_failure';
  firstAttempt: number;
  lastAttempt: number;
  retryCount: number;
  nextRetry: number;
}

/** Per-instance failure bookkeeping; decides the delay before the next poll. Pure apart from `random`. */
export class PollState {
  consecutiveFailures = 0;
  firstFailureAt: number | undefined;
  lastSuccess: number | undefined;
  lastError: PollError | undefined;
  breaker: BreakerInfo = {
    state: 'closed',
    since: undefined,
    lastTransition: undefined,
    retryAt: undefined,
    failureCount: 0,
  };
  deadLetter: DeadLetterInfo | undefined;

  constructor(
    private readonly cfg: PollPolicyConfig = defaultPollPolicy,
    private readonly random: () => number = Math.random,
  ) {}

  /** Called as a poll starts: an open breaker whose delay has passed lets this one probe through. */
  beforeRun(now: number): void {
    if (this.breaker.state === 'open' && (this.breaker.retryAt ?? 0) <= now) this.transition('half_open', now);
  }

  onSuccess(now: number, intervalMs: number): number {
    this.consecutiveFailures = 0;
    this.firstFailureAt = undefined;
    this.lastSuccess = now;
    this.deadLetter = undefined;
    if (this.breaker.state !== 'closed') this.transition('closed', now);
    this.breaker.failureCount = 0;
    this.breaker.retryAt = undefined;
    return intervalMs;
  }

  onFailure(now: number, error: unknown): number {
    const category = categorize(error);
    const message = error instanceof Error ? error.message : String(error);
    this.lastError = { at: now, message: message.slice(0, 500), category };
    this.consecutiveFailures++;
    this.firstFailureAt ??= now;
    this.tripBreaker(now);
    const permanent = category === 'auth';
    if (this.deadLetter || permanent || this.consecutiveFailures >= this.cfg.deadLetterAfter) {
      return this.toDeadLetter(now, permanent);
    }
    const backoff = this.backoff(this.consecutiveFailures);
    const retryAfter = (error as { retryAfterMs?: number }).retryAfterMs ?? 0;
    const breakerWait = this.breaker.state === 'open' ? (this.breaker.retryAt ?? now) - now : 0;
    return Math.min(this.cfg.maxBackoffMs, Math.max(backoff, retryAfter, breakerWait));
  }

  /** Exponential backoff with jitter: base × 2^(n-1) ± jitter, capped. */
  backoff(failures: number): number {
    const raw = Math.min(this.cfg.maxBackoffMs, this.cfg.baseBackoffMs * 2 ** Math.max(0, failures - 1));
    const factor = 1 + this.cfg.jitter * (2 * this.random() - 1);
    return Math.round(Math.min(this.cfg.maxBackoffMs, raw * factor));
  }

  private tripBreaker(now: number): void {
    const b = this.breaker;
    b.failureCount++;
    if (b.state === 'half_open' || (b.state === 'closed' && b.failureCount >= this.cfg.breakerThreshold)) {
      this.transition('open', now);
    }
    if (b.state === 'open') {
      b.retryAt = now + Math.min(this.cfg.maxBackoffMs, this.cfg.baseBackoffMs * 2 ** Math.min(b.failureCount, 16));
    }
  }

  private toDeadLetter(now: number, permanent: boolean): number {
    const d = this.deadLetter;
    const nextRetry = now + this.cfg.deadLetterRetryMs;
    this.deadLetter = d
      ? {
          ...d,
          lastAttempt: now,
          retryCount: d.retryCount + 1,
          nextRetry,
          ...(permanent ? { reason: 'permanent_failure' } : {}),
        }
      : {
          reason: permanent ? 'permanent_failure' : 'max_retry_attempts',
          firstAttempt: this.firstFailureAt ?? now,
          lastAttempt: now,
          retryCount: 0,
          nextRetry,
        };
    return this.cfg.deadLetterRetryMs;
  }

  private transition(state: BreakerState, now: number): void {
    this.breaker.state = state;
    this.breaker.since = now;
    this.breaker.lastTransition = now;
  }
}
