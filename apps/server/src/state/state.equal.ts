/** The field that changes on every poll without meaning a change of the resource. */
const VOLATILE_KEY = 'lastSeen';

/**
 * Structural equality of two mapped records (plain JSON-like data), ignoring top-level `lastSeen`.
 * Records are small and flat-ish, so this is far cheaper than serialising or diffing the whole state. Keys
 * are counted with for-in rather than collected with Object.keys: no arrays per object, every poll.
 */
export function sameRecord(a: unknown, b: unknown, top = true): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameRecord(a[i], b[i], false)) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  let keys = 0;
  for (const k in ra) {
    keys++;
    if (top && k === VOLATILE_KEY) continue;
    if (!(k in rb) || !sameRecord(ra[k], rb[k], false)) return false;
  }
  for (const _ in rb) keys--;
  return keys === 0;
}
