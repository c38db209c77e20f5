// Evaluation of pipelines, commands, fields and variables (the expression half of Go's exec.go).

import type { State } from './exec.js';
import { evalCall, idealConstant } from './exec-call.js';
import type { ChainNode, CommandNode, FieldNode, Node, PipeNode, VariableNode } from './nodes.js';
import { nodeString } from './nodes.js';
import { quote } from './quote.js';
import { isGoMap, typeName } from './values.js';

/** Marks "no final value": Go's missingVal, distinct from every data value. */
export const MISSING = Symbol('missing');
export type Final = unknown;

export function evalPipeline(s: State, dot: unknown, dotWrapped: boolean, pipe: PipeNode): unknown {
  s.at(pipe);
  let value: unknown = MISSING;
  for (const cmd of pipe.cmds) {
    value = evalCommand(s, dot, dotWrapped, cmd, value);
    // A nil interface{} result becomes "no value", as reflect.ValueOf(nil) does in Go.
    if (value === null) value = undefined;
  }
  for (const v of pipe.decl) {
    if (pipe.isAssign) s.setVar(v.ident[0]!, value);
    else s.vars.push({ name: v.ident[0]!, value, wrapped: false });
  }
  return value;
}

export function notAFunction(s: State, args: readonly Node[], final: Final): void {
  if (args.length > 1 || final !== MISSING) s.errorf(`can't give argument to non-function ${nodeString(args[0]!)}`);
}

function evalCommand(s: State, dot: unknown, dotWrapped: boolean, cmd: CommandNode, final: Final): unknown {
  const first = cmd.args[0]!;
  switch (first.type) {
    case 'field':
      return evalFieldNode(s, dot, dotWrapped, first, cmd.args, final);
    case 'chain':
      return evalChainNode(s, dot, dotWrapped, first, cmd.args, final);
    case 'identifier':
      s.at(first);
      return evalCall(s, dot, dotWrapped, first.ident, cmd, cmd.args, final);
    case 'pipe':
      notAFunction(s, cmd.args, final);
      return evalPipeline(s, dot, dotWrapped, first);
    case 'variable':
      return evalVariableNode(s, first, cmd.args, final);
  }
  s.at(first);
  notAFunction(s, cmd.args, final);
  switch (first.type) {
    case 'bool':
      return first.value;
    case 'dot':
      return dot;
    case 'nil':
      return s.errorf('nil is not a command');
    case 'number':
      return idealConstant(s, first);
    case 'string':
      return first.text;
  }
  s.errorf(`can't evaluate command ${quote(nodeString(first))}`);
}

export function evalFieldNode(
  s: State,
  dot: unknown,
  dotWrapped: boolean,
  field: FieldNode,
  args: readonly Node[] | null,
  final: Final,
): unknown {
  s.at(field);
  return evalFieldChainFrom(s, dot, dotWrapped, field.ident, args, final);
}

export function evalChainNode(
  s: State,
  dot: unknown,
  dotWrapped: boolean,
  chain: ChainNode,
  args: readonly Node[] | null,
  final: Final,
): unknown {
  s.at(chain);
  if (chain.node.type === 'nil') s.errorf(`indirection through explicit nil in ${nodeString(chain)}`);
  const [pipe, wrapped] = evalChainBase(s, dot, dotWrapped, chain.node);
  return evalFieldChainFrom(s, pipe, wrapped, chain.field, args, final);
}

function evalChainBase(s: State, dot: unknown, dotWrapped: boolean, n: Node): [unknown, boolean] {
  s.at(n);
  if (n.type === 'pipe') return [evalPipeline(s, dot, dotWrapped, n), false];
  if (n.type === 'identifier') return [evalCall(s, dot, dotWrapped, n.ident, n, null, MISSING), false];
  if (n.type === 'dot') return [dot, dotWrapped];
  s.errorf(`can't handle ${nodeString(n)} for arg of type <nil>`);
}

export function evalVariableNode(
  s: State,
  variable: VariableNode,
  args: readonly Node[] | null,
  final: Final,
): unknown {
  s.at(variable);
  const v = s.varValue(variable.ident[0]!);
  if (variable.ident.length === 1) {
    notAFunction(s, args ?? [], final);
    return v.value;
  }
  return evalFieldChainFrom(s, v.value, v.wrapped, variable.ident.slice(1), args, final);
}

function evalFieldChainFrom(
  s: State,
  receiver: unknown,
  wrapped: boolean,
  ident: readonly string[],
  args: readonly Node[] | null,
  final: Final,
): unknown {
  const n = ident.length;
  for (let i = 0; i < n - 1; i++) {
    receiver = evalField(s, ident[i]!, null, MISSING, receiver, wrapped);
    wrapped = true;
  }
  return evalField(s, ident[n - 1]!, args, final, receiver, wrapped);
}

function evalField(
  s: State,
  fieldName: string,
  args: readonly Node[] | null,
  final: Final,
  receiver: unknown,
  wrapped: boolean,
): unknown {
  if (receiver === undefined) {
    if (s.env.missingKeyError) s.errorf(`nil data; no entry for key ${quote(fieldName)}`);
    return undefined;
  }
  if (receiver === null) s.errorf(`nil pointer evaluating interface {}.${fieldName}`);
  const hasArgs = (args !== null && args.length > 1) || final !== MISSING;
  if (isGoMap(receiver)) {
    if (hasArgs) s.errorf(`${fieldName} is not a method but has arguments`);
    if (Object.hasOwn(receiver, fieldName)) return receiver[fieldName] ?? null;
    if (s.env.missingKeyError) s.errorf(`map has no entry for key ${quote(fieldName)}`);
    return undefined;
  }
  s.errorf(`can't evaluate field ${fieldName} in type ${wrapped ? 'interface {}' : typeName(receiver)}`);
}
