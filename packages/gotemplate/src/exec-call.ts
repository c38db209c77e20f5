// Calling functions from templates: Go's evalCall, evalArg and validateType over GoFunc signatures.

import { InterfaceArg } from './builtins.js';
import type { State } from './exec.js';
import { evalChainNode, evalFieldNode, evalPipeline, evalVariableNode, MISSING } from './exec-eval.js';
import type { GoFunc, ParamType } from './funcs.js';
import type { Node, NumberNode } from './nodes.js';
import { nodeString } from './nodes.js';
import { quote } from './quote.js';
import { GoInt, isTrue, kindOf, typeName } from './values.js';

const goTypeName: Record<ParamType, string> = {
  any: 'interface {}',
  value: 'reflect.Value',
  string: 'string',
  int: 'int',
  float64: 'float64',
  bool: 'bool',
};

function findFunction(s: State, name: string): [GoFunc, boolean] {
  const f = s.env.funcs.get(name);
  if (f !== undefined) return [f, false];
  const b = s.env.builtins.get(name);
  if (b !== undefined) return [b, true];
  s.errorf(`${quote(name)} is not a defined function`);
}

export function evalCall(
  s: State,
  dot: unknown,
  dotWrapped: boolean,
  name: string,
  node: Node,
  allArgs: readonly Node[] | null,
  final: unknown,
): unknown {
  const [fn, isBuiltin] = findFunction(s, name);
  const args = allArgs === null ? [] : allArgs.slice(1);
  const numIn = args.length + (final !== MISSING ? 1 : 0);
  const nParams = fn.params.length + (fn.variadic !== undefined ? 1 : 0);
  const numFixed = fn.variadic !== undefined ? fn.params.length : args.length;
  if (fn.variadic !== undefined) {
    if (numIn < numFixed) s.errorf(`wrong number of args for ${name}: want at least ${numFixed} got ${args.length}`);
  } else if (numIn !== nParams) s.errorf(`wrong number of args for ${name}: want ${nParams} got ${numIn}`);
  if (isBuiltin && (name === 'and' || name === 'or')) return andOr(s, dot, dotWrapped, name, args, final);
  const argv: unknown[] = [];
  let i = 0;
  for (; i < numFixed && i < args.length; i++) argv.push(evalArg(s, dot, dotWrapped, fn.params[i]!, args[i]!));
  if (fn.variadic !== undefined)
    for (; i < args.length; i++) argv.push(evalArg(s, dot, dotWrapped, fn.variadic, args[i]!));
  if (isBuiltin && name === 'slice') markInterfaceArgs(s, dotWrapped, args, argv);
  if (final !== MISSING) {
    let t: ParamType;
    if (fn.variadic === undefined) t = fn.params[fn.params.length - 1]!;
    else t = numIn - 1 < numFixed ? fn.params[numIn - 1]! : fn.variadic;
    argv.push(validateType(s, final, t));
  }
  try {
    const r = (fn.fn as (...a: unknown[]) => unknown)(...argv);
    return r === undefined ? null : r;
  } catch (e) {
    if (e instanceof RangeError && /call stack/i.test(e.message)) throw e;
    s.at(node);
    s.errorf(`error calling ${name}: ${e instanceof Error ? e.message : String(e)}`);
  }
}

// Only slice() does not unwrap interface-typed index arguments, so only it sees the difference.
function markInterfaceArgs(s: State, dotWrapped: boolean, args: readonly Node[], argv: unknown[]): void {
  for (let i = 1; i < args.length; i++) {
    const n = args[i]!;
    const v = argv[i];
    if (v === undefined) continue;
    let wrapped = n.type === 'field' || n.type === 'chain' || (n.type === 'dot' && dotWrapped);
    if (n.type === 'variable') wrapped = n.ident.length > 1 || s.varValue(n.ident[0]!).wrapped;
    if (wrapped) argv[i] = new InterfaceArg(v);
  }
}

function andOr(
  s: State,
  dot: unknown,
  dotWrapped: boolean,
  name: string,
  args: readonly Node[],
  final: unknown,
): unknown {
  let v: unknown;
  for (const arg of args) {
    v = evalArg(s, dot, dotWrapped, 'value', arg);
    if (isTrue(v) === (name === 'or')) return v;
  }
  if (final !== MISSING) v = validateType(s, final, 'value');
  return v;
}

/** validateType: whether a value may be passed as a parameter of type t. */
export function validateType(s: State, value: unknown, t: ParamType): unknown {
  if (value === undefined) {
    if (t === 'any') return null;
    if (t === 'value') return undefined;
    s.errorf(`invalid value; expected ${goTypeName[t]}`);
  }
  if (t === 'any' || t === 'value') return value;
  if (value === null) s.errorf(`wrong type for value; expected ${t}; got interface {}`);
  const k = kindOf(value);
  const ok =
    (t === 'string' && k === 'string') ||
    (t === 'bool' && k === 'bool') ||
    (t === 'float64' && k === 'float') ||
    (t === 'int' && (typeof value === 'bigint' || (value instanceof GoInt && value.type === 'int')));
  if (!ok) s.errorf(`wrong type for value; expected ${t}; got ${typeName(value)}`);
  return value;
}

export function evalArg(s: State, dot: unknown, dotWrapped: boolean, t: ParamType, n: Node): unknown {
  s.at(n);
  switch (n.type) {
    case 'dot':
      return validateType(s, dot, t);
    case 'nil':
      if (t === 'any') return null;
      if (t === 'value') return undefined;
      return s.errorf(`cannot assign nil to ${goTypeName[t]}`);
    case 'field':
      return validateType(s, evalFieldNode(s, dot, dotWrapped, n, [n], MISSING), t);
    case 'variable':
      return validateType(s, evalVariableNode(s, n, null, MISSING), t);
    case 'pipe':
      return validateType(s, evalPipeline(s, dot, dotWrapped, n), t);
    case 'identifier':
      return validateType(s, evalCall(s, dot, dotWrapped, n.ident, n, null, MISSING), t);
    case 'chain':
      return validateType(s, evalChainNode(s, dot, dotWrapped, n, null, MISSING), t);
  }
  return evalConstArg(s, t, n);
}

function evalConstArg(s: State, t: ParamType, n: Node): unknown {
  switch (t) {
    case 'bool':
      if (n.type === 'bool') return n.value;
      return s.errorf(`expected bool; found ${nodeString(n)}`);
    case 'string':
      if (n.type === 'string') return n.text;
      return s.errorf(`expected string; found ${nodeString(n)}`);
    case 'int':
      if (n.type === 'number' && n.isInt) return new GoInt('int', n.int);
      return s.errorf(`expected integer; found ${nodeString(n)}`);
    case 'float64':
      if (n.type === 'number' && n.isFloat) return n.float;
      return s.errorf(`expected float; found ${nodeString(n)}`);
  }
  switch (n.type) {
    case 'bool':
      return n.value;
    case 'number':
      return idealConstant(s, n);
    case 'string':
      return n.text;
  }
  s.errorf(`can't handle assignment of ${nodeString(n)} to empty interface argument`);
}

/** An untyped numeric constant becomes float64 if written like a float, else int. */
export function idealConstant(s: State, c: NumberNode): unknown {
  s.at(c);
  if (c.isComplex) s.errorf(`complex constant ${c.text} is not supported`);
  const t = c.text;
  const isHexInt = t.length > 2 && t[0] === '0' && (t[1] === 'x' || t[1] === 'X') && !/[pP]/.test(t);
  if (c.isFloat && !isHexInt && t[0] !== "'" && /[.eEpP]/.test(t)) return c.float;
  if (c.isInt) return new GoInt('int', c.int);
  if (c.isUint) s.errorf(`${t} overflows int`);
  return undefined;
}
