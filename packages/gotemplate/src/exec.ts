// Execution of a parsed template (Go's exec.go walk): output, control flow and Go's error texts.
import { ExecError } from './errors.js';
import { evalPipeline } from './exec-eval.js';
import { sprintOne } from './fmt/print.js';
import type { GoFunc } from './funcs.js';
import type { ListNode, Node, PipeNode, TemplateNode, Tree } from './nodes.js';
import { nodeString } from './nodes.js';
import { quote } from './quote.js';
import { utf8Len } from './unicode.js';
import { goInt, isGoMap, isTrue, sortedKeys } from './values.js';

export interface Variable {
  name: string;
  value: unknown;
  /** Held as interface{} (a map or slice element); only changes type names in errors. */
  wrapped: boolean;
}

export interface Env {
  trees: Map<string, Tree>;
  funcs: Map<string, GoFunc>;
  builtins: Map<string, GoFunc>;
  missingKeyError: boolean;
}

const BREAK = Symbol('break');
const CONTINUE = Symbol('continue');
const maxExecDepth = 100000;

export class State {
  out = '';
  node: Node | null = null;
  vars: Variable[];
  depth = 0;

  constructor(
    readonly env: Env,
    public tree: Tree,
    dot: unknown,
  ) {
    this.vars = [{ name: '$', value: dot, wrapped: false }];
  }

  at(node: Node): void {
    this.node = node;
  }

  errorf(msg: string): never {
    const name = this.tree.name;
    let text: string;
    if (this.node === null) text = `template: ${name}: ${msg}`;
    else {
      const [location, context] = errorContext(this.node);
      text = `template: ${location}: executing ${quote(name)} at <${context}>: ${msg}`;
    }
    const err = new ExecError(text, name);
    err.output = this.out;
    throw err;
  }

  varValue(name: string): Variable {
    for (let i = this.vars.length - 1; i >= 0; i--) if (this.vars[i]!.name === name) return this.vars[i]!;
    this.errorf(`undefined variable: ${name}`);
  }

  setVar(name: string, value: unknown): void {
    for (let i = this.vars.length - 1; i >= 0; i--) {
      const v = this.vars[i]!;
      if (v.name === name) {
        v.value = value;
        v.wrapped = false;
        return;
      }
    }
    this.errorf(`undefined variable: ${name}`);
  }

  walk(dot: unknown, dotWrapped: boolean, node: Node): void {
    this.at(node);
    switch (node.type) {
      case 'action': {
        const val = evalPipeline(this, dot, dotWrapped, node.pipe);
        if (node.pipe.decl.length === 0) this.printValue(node, val);
        return;
      }
      case 'break':
        throw BREAK;
      case 'continue':
        throw CONTINUE;
      case 'comment':
        return;
      case 'if':
      case 'with':
        this.walkIfOrWith(node.type, dot, dotWrapped, node.pipe, node.list, node.elseList);
        return;
      case 'list':
        for (const n of node.nodes) this.walk(dot, dotWrapped, n);
        return;
      case 'range':
        this.walkRange(dot, dotWrapped, node.pipe, node.list, node.elseList, node);
        return;
      case 'template':
        this.walkTemplate(dot, dotWrapped, node);
        return;
      case 'text':
        this.out += node.text;
        return;
      default:
        this.errorf(`unknown node: ${nodeString(node)}`);
    }
  }

  walkIfOrWith(
    typ: 'if' | 'with',
    dot: unknown,
    dotWrapped: boolean,
    pipe: PipeNode,
    list: ListNode,
    elseList: ListNode | null,
  ): void {
    const mark = this.vars.length;
    try {
      const val = evalPipeline(this, dot, dotWrapped, pipe);
      if (isTrue(val)) {
        if (typ === 'with') this.walk(val, false, list);
        else this.walk(dot, dotWrapped, list);
      } else if (elseList !== null) this.walk(dot, dotWrapped, elseList);
    } finally {
      this.vars.length = mark;
    }
  }

  walkRange(
    dot: unknown,
    dotWrapped: boolean,
    pipe: PipeNode,
    list: ListNode,
    elseList: ListNode | null,
    r: Node,
  ): void {
    this.at(r);
    const mark0 = this.vars.length;
    try {
      const val = evalPipeline(this, dot, dotWrapped, pipe);
      const mark = this.vars.length;
      const one = (index: unknown, elem: unknown): void => {
        if (pipe.decl.length > 0) Object.assign(this.vars[mark - 1]!, { value: elem, wrapped: true });
        if (pipe.decl.length > 1) Object.assign(this.vars[mark - 2]!, { value: index, wrapped: false });
        try {
          this.walk(elem, true, list);
        } catch (e) {
          if (e !== CONTINUE) throw e;
        } finally {
          this.vars.length = mark;
        }
      };
      if (this.rangeOver(val, one)) return;
      if (elseList !== null) this.walk(dot, dotWrapped, elseList);
    } catch (e) {
      if (e !== BREAK) throw e;
    } finally {
      this.vars.length = mark0;
    }
  }

  /** Iterates; false when there was nothing to iterate (so the else branch runs). */
  private rangeOver(val: unknown, one: (index: unknown, elem: unknown) => void): boolean {
    if (Array.isArray(val)) {
      for (let i = 0; i < val.length; i++) one(goInt(i), val[i] ?? null);
      return val.length > 0;
    }
    if (isGoMap(val)) {
      const keys = sortedKeys(val);
      for (const k of keys) one(k, val[k] ?? null);
      return keys.length > 0;
    }
    if (val === undefined || val === null) return false;
    this.errorf(`range can't iterate over ${sprintOne(val)}`);
  }

  walkTemplate(dot: unknown, dotWrapped: boolean, t: TemplateNode): void {
    this.at(t);
    const tree = this.env.trees.get(t.name);
    if (tree === undefined) this.errorf(`template ${quote(t.name)} not defined`);
    if (this.depth >= maxExecDepth) this.errorf(`exceeded maximum template depth (${maxExecDepth})`);
    const newDot = t.pipe ? evalPipeline(this, dot, dotWrapped, t.pipe) : undefined;
    const saved = { tree: this.tree, vars: this.vars };
    this.depth++;
    this.tree = tree;
    this.vars = [{ name: '$', value: newDot, wrapped: false }];
    try {
      if (tree.root) this.walk(newDot, false, tree.root);
    } finally {
      this.depth--;
      this.tree = saved.tree;
      this.vars = saved.vars;
    }
  }

  printValue(n: Node, v: unknown): void {
    this.at(n);
    if (v === undefined) this.out += '<no value>';
    else if (typeof v === 'string') this.out += v;
    else if (typeof v === 'function')
      this.errorf(`can't print ${nodeString(n)} of type func(...interface {}) (interface {}, error)`);
    else this.out += sprintOne(v);
  }
}

/** Tree.ErrorContext: "name:line:byteColumn" and the node's text (Go 1.19 does not shorten it). */
export function errorContext(n: Node): [string, string] {
  const text = n.tree.text.slice(0, n.pos);
  const nl = text.lastIndexOf('\n');
  const col = nl === -1 ? utf8Len(text) : utf8Len(text.slice(nl + 1));
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) line++;
  return [`${n.tree.parseName}:${line}:${col}`, nodeString(n)];
}
