import { describe, expect, it } from 'vitest';
import { sameRecord } from './state.equal.js';

describe('sameRecord', () => {
  const rec = { id: 'a', cpu: 1, memory: { used: 1, total: 2 }, loadAverage: [1, 2], lastSeen: 1 };

  it('ignores lastSeen at the top level only', () => {
    expect(sameRecord(rec, { ...rec, lastSeen: 2 })).toBe(true);
    expect(sameRecord({ x: { lastSeen: 1 } }, { x: { lastSeen: 2 } })).toBe(false);
  });

  it('sees changed, added and missing keys, nested values and array lengths', () => {
    expect(sameRecord(rec, { ...rec, memory: { used: 2, total: 2 } })).toBe(false);
    expect(sameRecord(rec, { ...rec, tags: 'x' })).toBe(false);
    expect(sameRecord({ ...rec, tags: 'x' }, rec)).toBe(false);
    expect(sameRecord({ a: undefined }, { b: undefined })).toBe(false);
    expect(sameRecord(rec, { ...rec, loadAverage: [1, 2, 3] })).toBe(false);
    expect(sameRecord({ v: [1] }, { v: { 0: 1 } })).toBe(false);
    expect(sameRecord({ v: null }, { v: {} })).toBe(false);
  });
});
