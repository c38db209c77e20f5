import { describe, expect, it } from 'vitest';
import { timeOrderedId } from './ids.js';

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('timeOrderedId', () => {
  it('is a version 7 UUID whose first 48 bits are the time in milliseconds', () => {
    const t = Date.UTC(2100, 0, 1); // later than any id made before in this process
    const id = timeOrderedId(t);
    expect(id).toMatch(UUID_V7);
    expect(Number.parseInt(id.replace(/-/g, '').slice(0, 12), 16)).toBe(t);
  });

  it('sorts in the order made, within one millisecond and across a clock step back', () => {
    const t = Date.UTC(2101, 0, 1);
    const ids = [
      ...Array.from({ length: 5000 }, () => timeOrderedId(t)), // more than the 4,096 counter values of one ms
      timeOrderedId(t - 10_000),
      timeOrderedId(t + 5),
    ];
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(UUID_V7);
  });
});
