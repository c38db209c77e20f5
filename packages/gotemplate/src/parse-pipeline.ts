// Pipelines, commands and operands: the expression half of Go's template parser.
import { type Item, T } from './lex.js';
import type { CommandNode, ListNode, Node, PipeNode, VariableNode } from './nodes.js';
import { nodeString } from './nodes.js';
import type { Parser } from './parse.js';
import { newNumber } from './parse-number.js';
import { quote } from './quote.js';

export function pipeline(t: Parser, context: string, end: T): PipeNode {
  const token = t.peekNonSpace();
  const pipe: PipeNode = {
    type: 'pipe',
    pos: token.pos,
    line: token.line,
    tree: t.tree,
    isAssign: false,
    decl: [],
    cmds: [],
  };
  parseDecls(t, pipe, context);
  for (;;) {
    const tok = t.nextNonSpace();
    if (tok.typ === end) {
      checkPipeline(t, pipe, context);
      return pipe;
    }
    switch (tok.typ) {
      case T.Bool:
      case T.CharConstant:
      case T.Complex:
      case T.Dot:
      case T.Field:
      case T.Identifier:
      case T.Number:
      case T.Nil:
      case T.RawString:
      case T.String:
      case T.Variable:
      case T.LeftParen:
        t.backup();
        pipe.cmds.push(command(t));
        break;
      default:
        t.unexpected(tok, context);
    }
  }
}

function newVariable(t: Parser, pos: number, ident: string): VariableNode {
  return { type: 'variable', pos, tree: t.tree, ident: ident.split('.') };
}

function parseDecls(t: Parser, pipe: PipeNode, context: string): void {
  for (;;) {
    const v = t.peekNonSpace();
    if (v.typ !== T.Variable) return;
    t.next();
    const tokenAfterVariable = t.peek();
    const next = t.peekNonSpace();
    if (next.typ === T.Assign || next.typ === T.Declare) {
      pipe.isAssign = next.typ === T.Assign;
      t.nextNonSpace();
      pipe.decl.push(newVariable(t, v.pos, v.val));
      t.vars.push(v.val);
      return;
    }
    if (next.typ === T.Char && next.val === ',') {
      t.nextNonSpace();
      pipe.decl.push(newVariable(t, v.pos, v.val));
      t.vars.push(v.val);
      if (context === 'range' && pipe.decl.length < 2) {
        const p = t.peekNonSpace().typ;
        if (p === T.Variable || p === T.RightDelim || p === T.RightParen) continue;
        t.errorf('range can only initialize variables');
      }
      t.errorf(`too many declarations in ${context}`);
    }
    if (tokenAfterVariable.typ === T.Space) t.backup3(v, tokenAfterVariable);
    else t.backup2(v);
    return;
  }
}

function checkPipeline(t: Parser, pipe: PipeNode, context: string): void {
  if (pipe.cmds.length === 0) t.errorf(`missing value for ${context}`);
  pipe.cmds.slice(1).forEach((c, i) => {
    const k = c.args[0]!.type;
    if (k === 'bool' || k === 'dot' || k === 'nil' || k === 'number' || k === 'string') {
      t.errorf(`non executable command in pipeline stage ${i + 2}`);
    }
  });
}

export function parseControl(t: Parser, allowElseIf: boolean, context: string): [PipeNode, ListNode, ListNode | null] {
  const mark = t.vars.length;
  try {
    const pipe = pipeline(t, context, T.RightDelim);
    if (context === 'range') t.rangeDepth++;
    let [list, next] = t.itemList();
    if (context === 'range') t.rangeDepth--;
    let elseList: ListNode | null = null;
    if (next.type === 'else') {
      if (allowElseIf && t.peek().typ === T.If) {
        t.next(); // Consume the "if" token.
        elseList = t.newList(next.pos);
        elseList.nodes.push(t.branch('if'));
      } else {
        [elseList, next] = t.itemList();
        if (next.type !== 'end') t.errorf(`expected end; found ${nodeString(next)}`);
      }
    }
    return [pipe, list, elseList];
  } finally {
    t.vars.length = mark;
  }
}

function command(t: Parser): CommandNode {
  const cmd: CommandNode = { type: 'command', pos: t.peekNonSpace().pos, tree: t.tree, args: [] };
  for (;;) {
    t.peekNonSpace(); // skip leading spaces.
    const op = operand(t);
    if (op !== null) cmd.args.push(op);
    const token = t.next();
    if (token.typ === T.Space) continue;
    if (token.typ === T.RightDelim || token.typ === T.RightParen) t.backup();
    else if (token.typ !== T.Pipe) t.unexpected(token, 'operand');
    break;
  }
  if (cmd.args.length === 0) t.errorf('empty command');
  return cmd;
}

function operand(t: Parser): Node | null {
  const node = term(t);
  if (node === null) return null;
  if (t.peek().typ !== T.Field) return node;
  const pos = t.peek().pos;
  const fields: string[] = [];
  while (t.peek().typ === T.Field) fields.push(t.next().val.slice(1));
  const chain: Node = { type: 'chain', pos, tree: t.tree, node, field: fields };
  switch (node.type) {
    case 'field':
      return { type: 'field', pos, tree: t.tree, ident: nodeString(chain).slice(1).split('.') };
    case 'variable':
      return newVariable(t, pos, nodeString(chain));
    case 'bool':
    case 'string':
    case 'number':
    case 'nil':
    case 'dot':
      t.errorf(`unexpected . after term ${quote(nodeString(node))}`);
  }
  return chain;
}

function term(t: Parser): Node | null {
  const token: Item = t.nextNonSpace();
  const base = { pos: token.pos, tree: t.tree };
  switch (token.typ) {
    case T.Identifier:
      if (!t.hasFunction(token.val)) t.errorf(`function ${quote(token.val)} not defined`);
      return { type: 'identifier', ...base, ident: token.val };
    case T.Dot:
      return { type: 'dot', ...base };
    case T.Nil:
      return { type: 'nil', ...base };
    case T.Variable:
      return useVar(t, token.pos, token.val);
    case T.Field:
      return { type: 'field', ...base, ident: token.val.slice(1).split('.') };
    case T.Bool:
      return { type: 'bool', ...base, value: token.val === 'true' };
    case T.CharConstant:
    case T.Complex:
    case T.Number:
      return numberTerm(t, token);
    case T.LeftParen:
      return pipeline(t, 'parenthesized pipeline', T.RightParen);
    case T.String:
    case T.RawString:
      return { type: 'string', ...base, quoted: token.val, text: t.unquote(token.val) };
  }
  t.backup();
  return null;
}

function numberTerm(t: Parser, token: Item): Node {
  try {
    return newNumber(t.tree, token.pos, token.val, token.typ);
  } catch (e) {
    t.errorf((e as Error).message);
  }
}

function useVar(t: Parser, pos: number, name: string): Node {
  const v = newVariable(t, pos, name);
  if (t.vars.includes(v.ident[0]!)) return v;
  t.errorf(`undefined variable ${quote(v.ident[0]!)}`);
}
