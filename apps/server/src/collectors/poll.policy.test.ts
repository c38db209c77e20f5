import { describe, expect, it } from 'vitest';
import { ApiError } from './api.errors.js';
import { PollState } from './poll.policy.js';

const conn = () => new ApiError('connectivity', 'ECONNREFUSED');

describe('PollState', () => {
  it('backs off 5 s ×2 with ±20 % jitter, capped at 5 min', () => {
    const low = new PollState(undefined, () => 0);
    const high = new PollState(undefined, () => 1);
    const mid = new PollState(undefined, () => 0.5);
    expect([1, 2, 3, 4].map((n) => mid.backoff(n))).toEqual([5_000, 10_000, 20_000, 40_000]);
    expect(low.backoff(1)).toBe(4_000);
    expect(high.backoff(1)).toBe(6_000);
    expect(mid.backoff(20)).toBe(300_000);
    expect(high.backoff(20)).toBe(300_000);
  });

  it('opens the breaker after 3 failures, half-opens for a probe, closes on success', () => {
    const s = new PollState(undefined, () => 0.5);
    expect(s.onFailure(0, conn())).toBe(5_000);
    expect(s.onFailure(5_000, conn())).toBe(10_000);
    expect(s.breaker.state).toBe('closed');
    const d3 = s.onFailure(15_000, conn());
    expect(s.breaker.state).toBe('open');
    expect(s.breaker.retryAt).toBe(15_000 + 40_000);
    expect(d3).toBe(40_000);
    s.beforeRun(30_000);
    expect(s.breaker.state).toBe('open');
    s.beforeRun(55_000);
    expect(s.breaker.state).toBe('half_open');
    expect(s.onSuccess(56_000, 10_000)).toBe(10_000);
    expect(s.breaker).toMatchObject({ state: 'closed', failureCount: 0 });
    expect(s.consecutiveFailures).toBe(0);
  });

  it('a failed half-open probe reopens the breaker', () => {
    const s = new PollState(undefined, () => 0.5);
    for (let i = 0; i < 3; i++) s.onFailure(i, conn());
    s.beforeRun(1_000_000);
    expect(s.breaker.state).toBe('half_open');
    s.onFailure(1_000_000, conn());
    expect(s.breaker.state).toBe('open');
  });

  it('moves to the dead-letter queue after 5 failures and retries every 30 min', () => {
    const s = new PollState(undefined, () => 0.5);
    const delays = [0, 1, 2, 3].map((i) => s.onFailure(i * 1000, conn()));
    expect(s.deadLetter).toBeUndefined();
    expect(delays.every((d) => d < 30 * 60_000)).toBe(true);
    expect(s.onFailure(10_000, conn())).toBe(30 * 60_000);
    expect(s.deadLetter).toMatchObject({
      reason: 'max_retry_attempts',
      firstAttempt: 0,
      retryCount: 0,
      nextRetry: 10_000 + 1_800_000,
    });
    expect(s.onFailure(1_810_000, conn())).toBe(30 * 60_000);
    expect(s.deadLetter?.retryCount).toBe(1);
    s.onSuccess(3_610_000, 10_000);
    expect(s.deadLetter).toBeUndefined();
  });

  it('sends auth errors straight to the dead-letter queue as permanent failures', () => {
    const s = new PollState();
    expect(s.onFailure(0, new ApiError('auth', '401 no ticket', { status: 401 }))).toBe(30 * 60_000);
    expect(s.deadLetter?.reason).toBe('permanent_failure');
    expect(s.lastError).toEqual({ at: 0, message: '401 no ticket', category: 'auth' });
  });

  it('honours Retry-After on 429 within the cap', () => {
    const s = new PollState(undefined, () => 0.5);
    expect(s.onFailure(0, new ApiError('rate_limited', 'slow', { status: 429, retryAfterMs: 60_000 }))).toBe(60_000);
    expect(s.onFailure(0, new ApiError('rate_limited', 'slow', { status: 429, retryAfterMs: 3_600_000 }))).toBe(
      300_000,
    );
  });
});
