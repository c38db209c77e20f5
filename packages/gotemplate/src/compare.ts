// eq, ne, lt, le, gt, ge with Go's basic-kind rules and error texts.
import { FuncError } from './errors.js';
import { sprintf } from './fmt/printf.js';
import { compareStrings } from './unicode.js';
import { intValue, kindOf, typeName } from './values.js';

type BasicKind = 'invalid' | 'bool' | 'int' | 'float' | 'string' | 'uint';

const errBadComparisonType = (): FuncError => new FuncError('invalid type for comparison');
const errBadComparison = (): FuncError => new FuncError('incompatible types for comparison');

/** indirectInterface: a nil interface becomes "no value". */
const ind = (v: unknown): unknown => (v === null ? undefined : v);

function basicKind(v: unknown): BasicKind {
  const k = kindOf(v);
  return k === 'bool' || k === 'int' || k === 'uint' || k === 'float' || k === 'string' ? k : 'invalid';
}

function eqBasic(k: BasicKind, a: unknown, b: unknown): boolean {
  if (k === 'int' || k === 'uint') return intValue(a) === intValue(b);
  return a === b;
}

function eqOther(a: unknown, b: unknown): boolean {
  const ka = kindOf(a);
  const kb = kindOf(b);
  if (ka !== kb && ka !== 'invalid' && kb !== 'invalid') {
    throw new FuncError(sprintf('non-comparable types %s: %v, %s: %v', [a, typeName(a), typeName(b), b]));
  }
  if (a === undefined || b === undefined) return (a === undefined) === (b === undefined);
  if (ka === 'func') return false;
  throw new FuncError(sprintf('non-comparable type %s: %v', [b, typeName(b)]));
}

export function eq(arg1: unknown, ...arg2: unknown[]): boolean {
  const a = ind(arg1);
  if (arg2.length === 0) throw new FuncError('missing argument for comparison');
  const k1 = basicKind(a);
  for (const raw of arg2) {
    const b = ind(raw);
    const k2 = basicKind(b);
    let truth = false;
    if (k1 !== k2) {
      if (k1 === 'int' && k2 === 'uint') truth = intValue(a) >= 0n && intValue(a) === intValue(b);
      else if (k1 === 'uint' && k2 === 'int') truth = intValue(b) >= 0n && intValue(a) === intValue(b);
      else if (a !== undefined && b !== undefined) throw errBadComparison();
    } else truth = k1 === 'invalid' ? eqOther(a, b) : eqBasic(k1, a, b);
    if (truth) return true;
  }
  return false;
}

export const ne = (a: unknown, b: unknown): boolean => !eq(a, b);

export function lt(arg1: unknown, arg2: unknown): boolean {
  const a = ind(arg1);
  const k1 = basicKind(a);
  if (k1 === 'invalid') throw errBadComparisonType();
  const b = ind(arg2);
  const k2 = basicKind(b);
  if (k2 === 'invalid') throw errBadComparisonType();
  if (k1 !== k2) {
    if (k1 === 'int' && k2 === 'uint') return intValue(a) < 0n || intValue(a) < intValue(b);
    if (k1 === 'uint' && k2 === 'int') return intValue(b) >= 0n && intValue(a) < intValue(b);
    throw errBadComparison();
  }
  switch (k1) {
    case 'bool':
      throw errBadComparisonType();
    case 'float':
      return (a as number) < (b as number);
    case 'string':
      return compareStrings(a as string, b as string) < 0;
    default:
      return intValue(a) < intValue(b);
  }
}

export const le = (a: unknown, b: unknown): boolean => lt(a, b) || eq(a, b);
export const gt = (a: unknown, b: unknown): boolean => !le(a, b);
export const ge = (a: unknown, b: unknown): boolean => !lt(a, b);
