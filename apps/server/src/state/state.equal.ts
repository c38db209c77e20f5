/** Fields that change on every poll without meaning a change of the resource. */
const volatileKeys = new Set(['lastSeen']);

/**
 * Structural equality of two mapped records (plain JSON-like data), ignoring `lastSeen`.
 * Records are small and flat-ish, so this is far cheaper than serialising or diffing the whole state.
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
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  for (const k of ka) {
    if (top && volatileKeys.has(k)) continue;
    if (!(k in rb) || !sameRecord(ra[k], rb[k], false)) return false;
  }
  return true;
}
