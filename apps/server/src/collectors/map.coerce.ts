/**
 * Lenient readers for API JSON: the Perl APIs send booleans as 0/1 and sometimes numbers as strings.
 * Mappers use these so that odd or missing fields degrade to defaults instead of throwing.
 */
export type Json = Record<string, unknown>;

export const isObj = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

export const obj = (v: unknown): Json => (isObj(v) ? v : {});

/** Items of an array that are objects; anything else is dropped. */
export const objects = (v: unknown): Json[] => (Array.isArray(v) ? v.filter(isObj) : []);

export function num(v: unknown, fallback = 0): number {
  if (typeof v === 'number') return Number.isFinite(v) ? v : fallback;
  if (typeof v === 'string' && v.trim() !== '') {
    const n = Number(v);
    return Number.isFinite(n) ? n : fallback;
  }
  return fallback;
}

export function optNum(v: unknown): number | undefined {
  const n = num(v, Number.NaN);
  return Number.isNaN(n) ? undefined : n;
}

export function str(v: unknown, fallback = ''): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return fallback;
}

export const optStr = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

export function bool(v: unknown): boolean {
  if (typeof v === 'boolean') return v;
  if (typeof v === 'number') return v !== 0;
  if (typeof v === 'string') return v === '1' || v.toLowerCase() === 'true';
  return false;
}

/** Percent 0..100 with two decimals; 0 when the total is unknown. */
export const percent = (used: number, total: number): number =>
  total > 0 ? Math.round((used / total) * 10_000) / 100 : 0;

/** Epoch seconds → epoch milliseconds (the payload speaks milliseconds). */
export const secToMs = (v: unknown): number => Math.round(num(v) * 1000);
