// Go's builtin template functions (funcs.go) with their exact signatures and error texts.
import { eq, ge, gt, le, lt, ne } from './compare.js';
import { FuncError } from './errors.js';
import { htmlEscape, jsEscape, queryEscape } from './escape.js';
import { sprint, sprintln } from './fmt/print.js';
import { sprintf } from './fmt/printf.js';
import { type GoFunc, goFunc } from './funcs.js';
import { fromUtf8, utf8Bytes, utf8Len } from './unicode.js';
import { GoInt, goInt, isGoMap, isTrue, kindOf, typeName } from './values.js';

const zeroValueType = (): FuncError => new FuncError('reflect: call of reflect.Value.Type on zero Value');

// A Go slice is a window on a backing array: encoding/json grows decoded arrays by append, and the
// capacity (and what lies past len) decides what `slice` may reach and show.
interface Backing {
  base: unknown[];
  offset: number;
  cap: number;
}
const backings = new WeakMap<unknown[], Backing>();
function backingOf(a: unknown[]): Backing {
  const b = backings.get(a);
  if (b !== undefined) return b;
  const cap = a.length <= 1 ? a.length : a.length <= 512 ? 2 ** Math.ceil(Math.log2(a.length)) : a.length;
  return { base: a, offset: 0, cap };
}

/** A reflect.Value of interface kind: slice() sees its static type, unlike other builtins. */
export class InterfaceArg {
  constructor(readonly value: unknown) {}
}

function length(item: unknown): GoInt {
  if (item === null) throw new FuncError('len of nil pointer');
  if (item === undefined) throw zeroValueType();
  if (typeof item === 'string') return goInt(utf8Len(item));
  if (Array.isArray(item)) return goInt(item.length);
  if (isGoMap(item)) return goInt(Object.keys(item).length);
  throw new FuncError(`len of type ${typeName(item)}`);
}

function indexArg(index: unknown, cap: number): number {
  if (index instanceof InterfaceArg) throw new FuncError('cannot index slice/array with type interface {}');
  const k = kindOf(index);
  if (k === 'invalid' || k === 'nil') throw new FuncError('cannot index slice/array with nil');
  if (k !== 'int' && k !== 'uint') throw new FuncError(`cannot index slice/array with type ${typeName(index)}`);
  const x = typeof index === 'bigint' ? index : (index as GoInt).value;
  if (x < 0n || x > BigInt(cap)) throw new FuncError(`index out of range: ${x}`);
  return Number(x);
}

function index(item: unknown, ...indexes: unknown[]): unknown {
  if (item === null || item === undefined) throw new FuncError('index of untyped nil');
  for (const raw of indexes) {
    const ix = raw === null ? undefined : raw;
    if (item === null) throw new FuncError('index of nil pointer');
    if (typeof item === 'string' || Array.isArray(item)) {
      const n = typeof item === 'string' ? utf8Len(item) : item.length;
      const x = indexArg(ix, n);
      if (x === n) throw new FuncError(`reflect: ${typeof item === 'string' ? 'string' : 'slice'} index out of range`);
      item = typeof item === 'string' ? new GoInt('uint8', BigInt(utf8Bytes(item)[x]!)) : (item[x] ?? null);
    } else if (isGoMap(item)) {
      if (ix === undefined) throw new FuncError('value is nil; should be of type string');
      if (typeof ix !== 'string') throw new FuncError(`value has type ${typeName(ix)}; should be string`);
      item = Object.hasOwn(item, ix) ? (item[ix] ?? null) : null;
    } else throw new FuncError(`can't index item of type ${typeName(item)}`);
  }
  return item;
}

function slice(item: unknown, ...indexes: unknown[]): unknown {
  if (item === null || item === undefined) throw new FuncError('slice of untyped nil');
  if (indexes.length > 3) throw new FuncError(`too many slice indexes: ${indexes.length}`);
  let cap: number;
  let len: number;
  if (typeof item === 'string') {
    if (indexes.length === 3) throw new FuncError('cannot 3-index slice a string');
    cap = len = utf8Len(item);
  } else if (Array.isArray(item)) {
    cap = backingOf(item).cap;
    len = item.length;
  } else throw new FuncError(`can't slice item of type ${typeName(item)}`);
  const idx = [0, len, 0];
  indexes.forEach((ix, i) => {
    idx[i] = indexArg(ix === null ? undefined : ix, cap);
  });
  const [i, j, k] = idx as [number, number, number];
  if (i > j) throw new FuncError(`invalid slice index: ${i} > ${j}`);
  if (indexes.length === 3 && j > k) throw new FuncError(`invalid slice index: ${j} > ${k}`);
  if (typeof item === 'string') return sliceString(item, i, j);
  const { base, offset } = backingOf(item);
  const out: unknown[] = [];
  for (let x = offset + i; x < offset + j; x++) out.push(x < base.length ? (base[x] ?? null) : null);
  backings.set(out, { base, offset: offset + i, cap: (indexes.length === 3 ? k : cap) - i });
  return out;
}

// Cutting inside a multi-byte character yields invalid UTF-8 in Go; here it decodes to U+FFFD.
function sliceString(s: string, i: number, j: number): string {
  if (i === 0 && j === s.length && utf8Len(s) === s.length) return s;
  return fromUtf8(utf8Bytes(s).subarray(i, j));
}

function call(fn: unknown, ...args: unknown[]): unknown {
  if (fn === null || fn === undefined) throw new FuncError('call of nil');
  if (typeof fn !== 'function') throw new FuncError(`non-function of type ${typeName(fn)}`);
  return fn(...args.map((a) => (a === undefined ? null : a)));
}

/** evalArgs of html/js/urlquery: a lone string as is, else fmt.Sprint with <no value> for nil. */
export function evalArgs(args: readonly unknown[]): string {
  if (args.length === 1 && typeof args[0] === 'string') return args[0];
  return sprint(args.map((a) => (a === null || a === undefined ? '<no value>' : a)));
}

export const builtinFuncs: Record<string, GoFunc> = {
  and: goFunc(['value'], () => undefined, 'value'),
  or: goFunc(['value'], () => undefined, 'value'),
  call: goFunc(['value'], call as never, 'value'),
  html: goFunc([], ((...a: unknown[]) => htmlEscape(evalArgs(a))) as never, 'any'),
  index: goFunc(['value'], index as never, 'value'),
  slice: goFunc(['value'], slice as never, 'value'),
  js: goFunc([], ((...a: unknown[]) => jsEscape(evalArgs(a))) as never, 'any'),
  len: goFunc(['value'], length as never),
  not: goFunc(['value'], ((a: unknown) => !isTrue(a)) as never),
  print: goFunc([], ((...a: unknown[]) => sprint(a)) as never, 'any'),
  printf: goFunc(['string'], ((f: string, ...a: unknown[]) => sprintf(f, a)) as never, 'any'),
  println: goFunc([], ((...a: unknown[]) => sprintln(a)) as never, 'any'),
  urlquery: goFunc([], ((...a: unknown[]) => queryEscape(evalArgs(a))) as never, 'any'),
  eq: goFunc(['value'], eq as never, 'value'),
  ge: goFunc(['value', 'value'], ge as never),
  gt: goFunc(['value', 'value'], gt as never),
  le: goFunc(['value', 'value'], le as never),
  lt: goFunc(['value', 'value'], lt as never),
  ne: goFunc(['value', 'value'], ne as never),
};
