// The public Template: parse once, execute many times, like Go's template.Template.
import { builtinFuncs } from './builtins.js';
import { ExecError } from './errors.js';
import { type Env, State } from './exec.js';
import { checkFuncName, type FuncMap, type GoFunc, toGoFunc } from './funcs.js';
import type { Tree } from './nodes.js';
import { parseTrees } from './parse.js';
import { quote } from './quote.js';

export interface ParseOptions {
  /** Extra functions, like Go's Template.Funcs; they override builtins of the same name. */
  funcs?: FuncMap;
  /** Go's Option("missingkey=..."): "default" prints <no value>, "error" fails. */
  missingKey?: 'default' | 'zero' | 'error';
}

const builtins = new Map(Object.entries(builtinFuncs));

export class Template {
  private readonly env: Env;

  constructor(
    readonly name: string,
    trees: Map<string, Tree>,
    funcs: Map<string, GoFunc>,
    missingKey: ParseOptions['missingKey'],
  ) {
    this.env = { trees, funcs, builtins, missingKeyError: missingKey === 'error' };
  }

  /** Renders the template named like this one; throws ExecError with Go's message. */
  execute(data?: unknown): string {
    return this.executeTemplate(this.name, data);
  }

  /** Renders a template defined with {{define}} (Go's ExecuteTemplate). */
  executeTemplate(name: string, data?: unknown): string {
    const tree = this.env.trees.get(name);
    if (tree === undefined && name !== this.name) {
      throw new ExecError(`template: no template ${quote(name)} associated with template ${quote(this.name)}`, name);
    }
    // JSON null at the top is reflect.ValueOf(nil): no value at all, not a nil interface.
    if (data === null) data = undefined;
    const state = new State(this.env, tree ?? { name, parseName: name, text: '', root: null }, data);
    const root = tree?.root;
    if (root == null) return state.errorf(`${quote(name)} is an incomplete or empty template`);
    try {
      state.walk(data, false, root);
    } catch (e) {
      if (e instanceof RangeError) state.errorf('exceeded maximum template depth (100000)');
      throw e;
    }
    return state.out;
  }

  /** Names of all templates defined by the text, sorted. */
  templateNames(): string[] {
    return [...this.env.trees.keys()].sort();
  }
}

/** Parses text as template `name`; throws TemplateError with Go's message. */
export function parse(name: string, text: string, options: ParseOptions = {}): Template {
  const funcs = new Map<string, GoFunc>();
  for (const [fname, f] of Object.entries(options.funcs ?? {})) {
    checkFuncName(fname);
    funcs.set(fname, toGoFunc(f));
  }
  const has = (n: string): boolean => funcs.has(n) || builtins.has(n);
  const trees = parseTrees(name, text, has);
  return new Template(name, trees, funcs, options.missingKey);
}
