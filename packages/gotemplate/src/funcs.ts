// Function values callable from templates, with the Go signature that decides argument checks.
import { FuncError } from './errors.js';

/**
 * A parameter's Go type. `any` is interface{} (what most functions take); `value` is
 * reflect.Value, used by builtins that must see "no value" apart from nil.
 */
export type ParamType = 'any' | 'value' | 'string' | 'int' | 'float64' | 'bool';

export interface GoFunc {
  readonly params: readonly ParamType[];
  /** The element type of a final variadic parameter (`...T`), if any. */
  readonly variadic?: ParamType;
  /** Receives converted arguments; throws FuncError (or any Error) for a Go error result. */
  readonly fn: (...args: never[]) => unknown;
}

/** Declares a function with an explicit Go signature. */
export function goFunc(params: readonly ParamType[], fn: (...args: never[]) => unknown, variadic?: ParamType): GoFunc {
  return variadic === undefined ? { params, fn } : { params, variadic, fn };
}

/** What `funcs` accepts: a GoFunc, or a plain function taking `...interface{}`. */
export type FuncValue = GoFunc | ((...args: never[]) => unknown);
export type FuncMap = Record<string, FuncValue>;

export function toGoFunc(f: FuncValue): GoFunc {
  return typeof f === 'function' ? { params: [], variadic: 'any', fn: f } : f;
}

const identRe = /^[\p{L}_][\p{L}\p{Nd}_]*$/u;

/** Go's goodName check, applied when functions are registered. */
export function checkFuncName(name: string): void {
  if (!identRe.test(name)) throw new Error(`function name ${JSON.stringify(name)} is not a valid identifier`);
}

export { FuncError };
