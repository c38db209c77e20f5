import type { Clock } from '@svc/platform';

const SLOT_SECONDS = 10;
const SLOTS = 30;

/** Points written per second over the last five minutes, in ten-second slots: constant memory. */
export function createWriteRate(clock: Clock) {
  const slots = new Float64Array(SLOTS);
  const slotTimes = new Float64Array(SLOTS).fill(-1);
  const startedAt = clock.now();
  let total = 0;
  let rejected = 0;
  let lastWriteAt: number | null = null;

  return {
    add(r: { written: number; rejected: number }): void {
      const now = clock.now();
      const slot = Math.floor(now / 1000 / SLOT_SECONDS);
      const i = slot % SLOTS;
      if (slotTimes[i] !== slot) {
        slotTimes[i] = slot;
        slots[i] = 0;
      }
      slots[i]! += r.written;
      total += r.written;
      rejected += r.rejected;
      if (r.written > 0) lastWriteAt = now;
    },
    snapshot() {
      const now = clock.now();
      const current = Math.floor(now / 1000 / SLOT_SECONDS);
      let sum = 0;
      for (let i = 0; i < SLOTS; i++) if (slotTimes[i]! > current - SLOTS) sum += slots[i]!;
      const window = Math.max(1, Math.min(SLOTS * SLOT_SECONDS, (now - startedAt) / 1000));
      return { pointsPerSecond: sum / window, pointsTotal: total, rejectedTotal: rejected, lastWriteAt };
    },
  };
}
