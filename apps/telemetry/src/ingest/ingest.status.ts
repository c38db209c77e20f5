/**
 * Install statuses and how a record may move between them. The set is every value real installer clients
 * have sent (see docs/telemetry.md); `sucess` is a misspelling one client release used for `success`.
 */
export const statuses = [
  'installing',
  'validation',
  'configuring',
  'failed',
  'done',
  'success',
  'aborted',
  'unknown',
] as const;
export type Status = (typeof statuses)[number];

/** Still running: the reaper turns these into `unknown` when no outcome arrives in time. */
export const inProgressStatuses: readonly Status[] = ['installing', 'validation', 'configuring'];

/** `done` (clients until 2026) and `success` (later clients) mean the same outcome. */
export type Outcome = 'in_progress' | 'success' | 'failed' | 'aborted' | 'unknown';

export function outcomeOf(status: string): Outcome {
  switch (status) {
    case 'done':
    case 'success':
      return 'success';
    case 'failed':
      return 'failed';
    case 'aborted':
      return 'aborted';
    case 'unknown':
      return 'unknown';
    default:
      return 'in_progress';
  }
}

/** Lower-cases, trims and fixes the known misspelling; returns undefined for values no client ever sent. */
export function normalizeStatus(raw: string): Status | undefined {
  const s = raw.trim().toLowerCase();
  const fixed = s === 'sucess' ? 'success' : s;
  return (statuses as readonly string[]).includes(fixed) ? (fixed as Status) : undefined;
}

export type Transition = 'apply' | 'same' | 'conflict';

/**
 * `unknown` is the reaper's guess, so a late real outcome replaces it. A finished install keeps its first
 * outcome: the first terminal report is the most specific one (the container's, not the host's echo).
 */
export function decideTransition(current: string, next: Status): Transition {
  if (current === next) return 'same';
  const from = outcomeOf(current);
  const to = outcomeOf(next);
  if (from === 'in_progress' || from === 'unknown') return 'apply';
  if (from === to) return 'same';
  return 'conflict';
}

/** Statuses whose error text is a failure reason worth counting in "top errors". */
export function countsAsFailure(status: string): boolean {
  const o = outcomeOf(status);
  return o === 'failed' || o === 'aborted';
}
