// Deterministic, allocation-free pseudo-random helpers. Every simulated value is a pure function of
// (seed, entity key, time), so two simulators with the same seed and clock answer the same bytes.

/** 32-bit integer hash (lowbias32 by Chris Wellons): good avalanche, no allocation. */
export function hash32(x: number): number {
  let h = x >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  h = Math.imul(h, 0x846ca68b);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Combines several integers into one hash. */
export function mix(a: number, b: number, c = 0, d = 0): number {
  return hash32(hash32(hash32(hash32(a) ^ b) ^ c) ^ d);
}

/** Uniform float in [0, 1) from integers. */
export function unit(a: number, b: number, c = 0, d = 0): number {
  return mix(a, b, c, d) / 4294967296;
}

/** Integer in [lo, hi] from integers. */
export function pick(lo: number, hi: number, a: number, b: number, c = 0): number {
  return lo + Math.floor(unit(a, b, c) * (hi - lo + 1));
}

/** Hashes a string to a 32-bit integer (FNV-1a); used once per seed, never per request. */
export function hashString(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/**
 * Smooth value noise in [0, 1): random knots every `period` seconds, cosine-interpolated, so a metric
 * drifts plausibly between polls instead of jumping.
 */
export function smooth(seed: number, key: number, tSec: number, period: number): number {
  const x = tSec / period;
  const k = Math.floor(x);
  const f = x - k;
  const a = unit(seed, key, k);
  const b = unit(seed, key, k + 1);
  const w = (1 - Math.cos(f * Math.PI)) / 2;
  return a + (b - a) * w;
}

/**
 * A monotonically increasing counter (bytes since start): average `rate` per second with a periodic
 * swing whose derivative never goes negative.
 */
export function counter(rate: number, elapsedSec: number, period: number, phase: number): number {
  if (elapsedSec <= 0) return 0;
  const w = (2 * Math.PI) / period;
  const swing = (Math.cos(phase) - Math.cos(w * elapsedSec + phase)) / w;
  return Math.floor(rate * (elapsedSec + swing));
}
