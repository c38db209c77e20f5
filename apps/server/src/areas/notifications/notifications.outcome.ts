/** The result of one delivery attempt on any channel, and whether it is worth trying again. */
export interface SendOutcome {
  ok: boolean;
  /** HTTP status (webhooks, relay HTTP), SMTP reply code (email), exit code (relay CLI); 0 when none. */
  status: number;
  response: string;
  error?: string;
  retryable: boolean;
  retryAfterMs?: number;
  durationMs: number;
}

/** 2xx delivered; 408, 425, 429 and 5xx retried (429 with Retry-After); any other answer is final. */
export function classifyHttp(status: number): { ok: boolean; retryable: boolean } {
  if (status >= 200 && status < 300) return { ok: true, retryable: false };
  if (status === 408 || status === 425 || status === 429 || status >= 500) return { ok: false, retryable: true };
  return { ok: false, retryable: false };
}
