// The Go value model. Data is what encoding/json gives Go for interface{}: float64 (JS number),
// string, bool, []interface{} (arrays), map[string]interface{} (plain objects) and nil. Two
// absences are kept apart as reflect does: `undefined` is the invalid reflect.Value ("no value",
// e.g. a missing map key) and `null` is a nil interface{} stored in a map or slice.

export type IntType = 'int' | 'int8' | 'int16' | 'int32' | 'int64' | 'uint' | 'uint8' | 'uint16' | 'uint32' | 'uint64';

/** A Go integer (len results, integer constants, bytes from index on a string). */
export class GoInt {
  constructor(
    readonly type: IntType,
    readonly value: bigint,
  ) {}
  get unsigned(): boolean {
    return this.type[0] === 'u';
  }
}

export const goInt = (n: number | bigint): GoInt => new GoInt('int', BigInt(n));

export type GoMap = { [key: string]: unknown };

export type Kind = 'invalid' | 'nil' | 'bool' | 'int' | 'uint' | 'float' | 'string' | 'slice' | 'map' | 'func';

export function kindOf(v: unknown): Kind {
  switch (typeof v) {
    case 'string':
      return 'string';
    case 'number':
      return 'float';
    case 'boolean':
      return 'bool';
    case 'undefined':
      return 'invalid';
    case 'function':
      return 'func';
    case 'bigint':
      return 'int';
  }
  if (v === null) return 'nil';
  if (v instanceof GoInt) return v.unsigned ? 'uint' : 'int';
  if (Array.isArray(v)) return 'slice';
  return 'map';
}

/** reflect.Type.String() of a value; `null` is the static type interface {} it was stored as. */
export function typeName(v: unknown): string {
  switch (kindOf(v)) {
    case 'string':
      return 'string';
    case 'float':
      return 'float64';
    case 'bool':
      return 'bool';
    case 'int':
    case 'uint':
      return typeof v === 'bigint' ? 'int' : (v as GoInt).type;
    case 'slice':
      return '[]interface {}';
    case 'map':
      return 'map[string]interface {}';
    case 'func':
      return 'func(...interface {}) (interface {}, error)';
    case 'nil':
      return 'interface {}';
    default:
      return '<nil>';
  }
}

export function isGoMap(v: unknown): v is GoMap {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof GoInt);
}

/** Keys in Go's fmtsort order (byte-wise on UTF-8, which is code point order). */
export function sortedKeys(m: GoMap): string[] {
  return Object.keys(m).sort(codePointOrder);
}

function codePointOrder(a: string, b: string): number {
  if (!hasAstral(a) && !hasAstral(b)) return a < b ? -1 : a > b ? 1 : 0;
  const x = [...a].map((c) => c.codePointAt(0)!);
  const y = [...b].map((c) => c.codePointAt(0)!);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return x.length - y.length;
}

function hasAstral(s: string): boolean {
  return /[\ud800-\udfff]/.test(s);
}

/** template.IsTrue: [truth, ok]; ok is false for values that have no truth (none in JSON data). */
export function isTrue(v: unknown): boolean {
  switch (typeof v) {
    case 'string':
      return v.length > 0;
    case 'number':
      return v !== 0;
    case 'boolean':
      return v;
    case 'undefined':
      return false;
    case 'function':
      return true;
    case 'bigint':
      return v !== 0n;
  }
  if (v === null) return false;
  if (v instanceof GoInt) return v.value !== 0n;
  if (Array.isArray(v)) return v.length > 0;
  return Object.keys(v as object).length > 0;
}

/** The integer value of an int or uint kind. */
export function intValue(v: unknown): bigint {
  return typeof v === 'bigint' ? v : (v as GoInt).value;
}
