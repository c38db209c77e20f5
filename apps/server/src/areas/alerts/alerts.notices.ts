import type { AlertRecord, RecoveryRouting } from '@svc/contract';

export type NoticeEvent = 'firing' | 'resolved' | 'reminder' | 'escalated' | 'flapping';

/**
 * One notification decision of the alert engine, handed to the notification side.
 * `eventId` is `<alertId>:<event>:<sequence>` where the sequence is the outbox row number: it never changes,
 * so a notice handed over twice (after a crash) carries the same id and receivers can de-duplicate.
 */
export interface AlertNotice {
  eventId: string;
  event: NoticeEvent;
  /** The alert as it was when the decision was taken (resolved notices carry `resolvedTime` in metadata). */
  alert: AlertRecord;
  /** Unix ms of the decision; a notice deferred by quiet hours is handed over later with the same `at`. */
  at: number;
  /** Recoveries only: `schedule.recoveryRouting` at hand-over time. */
  routing?: RecoveryRouting;
}

/**
 * Where notices go. `deliver` must have stored them durably (or sent them) when its promise resolves:
 * only then are the outbox rows marked handed over. It may see a notice again after a crash (same eventId).
 */
export interface NoticeSink {
  deliver(notices: AlertNotice[]): Promise<void>;
}

/** The default sink: keeps every notice in memory, in order (tests and installs without notifications). */
export function createMemorySink(): NoticeSink & { readonly notices: AlertNotice[]; take(): AlertNotice[] } {
  const notices: AlertNotice[] = [];
  return {
    notices,
    async deliver(batch) {
      notices.push(...batch);
    },
    take() {
      return notices.splice(0, notices.length);
    },
  };
}

export const noticeEventId = (alertId: string, event: string, seq: number): string => `${alertId}:${event}:${seq}`;
