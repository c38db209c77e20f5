// The parser of Go's text/template/parse: same grammar, same lookahead, same error texts and lines.
import { TemplateError } from './errors.js';
import { type Item, Lexer, T } from './lex.js';
import type { ListNode, Node, PipeNode, Tree } from './nodes.js';
import { parseControl, pipeline } from './parse-pipeline.js';
import { quote, unquote } from './quote.js';

const eofItem: Item = { typ: T.Error, pos: 0, val: '', line: 0 };

/** The lexer's items, consumed in order by every tree parsed from one text. */
export class ItemStream {
  private i = 0;
  constructor(private readonly items: Item[]) {}
  next(): Item {
    return this.items[this.i++] ?? eofItem;
  }
}

export function itemString(i: Item): string {
  if (i.typ === T.EOF) return 'EOF';
  if (i.typ === T.Error) return i.val;
  if (i.typ > T.Keyword) return `<${i.val}>`;
  if ([...i.val].length > 10) return `${quote([...i.val].slice(0, 10).join(''))}...`;
  return quote(i.val);
}

export class Parser {
  readonly tree: Tree;
  private token: Item[] = [eofItem, eofItem, eofItem];
  private peekCount = 0;
  vars: string[] = ['$'];
  actionLine = 0;
  rangeDepth = 0;

  constructor(
    name: string,
    parseName: string,
    text: string,
    readonly lex: ItemStream,
    readonly treeSet: Map<string, Tree>,
    readonly hasFunction: (name: string) => boolean,
  ) {
    this.tree = { name, parseName, text, root: null };
  }

  next(): Item {
    if (this.peekCount > 0) this.peekCount--;
    else this.token[0] = this.lex.next();
    return this.token[this.peekCount]!;
  }
  backup(): void {
    this.peekCount++;
  }
  backup2(t1: Item): void {
    this.token[1] = t1;
    this.peekCount = 2;
  }
  backup3(t2: Item, t1: Item): void {
    this.token[1] = t1;
    this.token[2] = t2;
    this.peekCount = 3;
  }
  peek(): Item {
    if (this.peekCount > 0) return this.token[this.peekCount - 1]!;
    this.peekCount = 1;
    this.token[0] = this.lex.next();
    return this.token[0];
  }
  nextNonSpace(): Item {
    let token: Item;
    do token = this.next();
    while (token.typ === T.Space);
    return token;
  }
  peekNonSpace(): Item {
    const token = this.nextNonSpace();
    this.backup();
    return token;
  }

  errorf(msg: string): never {
    this.tree.root = null;
    throw new TemplateError(`template: ${this.tree.parseName}:${this.token[0]!.line}: ${msg}`);
  }

  expect(expected: T, context: string): Item {
    const token = this.nextNonSpace();
    if (token.typ !== expected) this.unexpected(token, context);
    return token;
  }

  expectOneOf(e1: T, e2: T, context: string): Item {
    const token = this.nextNonSpace();
    if (token.typ !== e1 && token.typ !== e2) this.unexpected(token, context);
    return token;
  }

  unexpected(token: Item, context: string): never {
    if (token.typ === T.Error) {
      let extra = '';
      if (this.actionLine !== 0 && this.actionLine !== token.line) {
        extra = ` in action started at ${this.tree.parseName}:${this.actionLine}`;
        if (token.val.endsWith(' action')) extra = extra.slice(' in action'.length);
      }
      this.errorf(`${itemString(token)}${extra}`);
    }
    this.errorf(`unexpected ${itemString(token)} in ${context}`);
  }

  unquote(s: string): string {
    try {
      return unquote(s);
    } catch (e) {
      this.errorf((e as Error).message);
    }
  }

  add(): void {
    const existing = this.treeSet.get(this.tree.name);
    if (existing === undefined || isEmptyTree(existing.root)) {
      this.treeSet.set(this.tree.name, this.tree);
      return;
    }
    if (!isEmptyTree(this.tree.root)) this.errorf(`template: multiple definition of template ${quote(this.tree.name)}`);
  }

  child(name: string): Parser {
    const p = new Parser(name, this.tree.parseName, this.tree.text, this.lex, this.treeSet, this.hasFunction);
    return p;
  }

  newList(pos: number): ListNode {
    return { type: 'list', pos, tree: this.tree, nodes: [] };
  }

  parse(): void {
    const root = this.newList(this.peek().pos);
    this.tree.root = root;
    while (this.peek().typ !== T.EOF) {
      if (this.peek().typ === T.LeftDelim) {
        const delim = this.next();
        if (this.nextNonSpace().typ === T.Define) {
          this.child('definition').parseDefinition();
          continue;
        }
        this.backup2(delim);
      }
      const n = this.textOrAction();
      if (n.type === 'end' || n.type === 'else') this.errorf(`unexpected ${nodeStr(n)}`);
      root.nodes.push(n);
    }
  }

  parseDefinition(): void {
    const context = 'define clause';
    const name = this.expectOneOf(T.String, T.RawString, context);
    this.tree.name = this.unquote(name.val);
    this.expect(T.RightDelim, context);
    const [list, end] = this.itemList();
    this.tree.root = list;
    if (end.type !== 'end') this.errorf(`unexpected ${nodeStr(end)} in ${context}`);
    this.add();
  }

  itemList(): [ListNode, Node] {
    const list = this.newList(this.peekNonSpace().pos);
    while (this.peekNonSpace().typ !== T.EOF) {
      const n = this.textOrAction();
      if (n.type === 'end' || n.type === 'else') return [list, n];
      list.nodes.push(n);
    }
    this.errorf('unexpected EOF');
  }

  textOrAction(): Node {
    const token = this.nextNonSpace();
    switch (token.typ) {
      case T.Text:
        return { type: 'text', pos: token.pos, tree: this.tree, text: token.val };
      case T.LeftDelim:
        this.actionLine = token.line;
        try {
          return this.action();
        } finally {
          this.actionLine = 0;
        }
      default:
        this.unexpected(token, 'input');
    }
  }

  action(): Node {
    const token = this.nextNonSpace();
    switch (token.typ) {
      case T.Block:
        return this.blockControl();
      case T.Break:
      case T.Continue:
        return this.loopControl(token);
      case T.Else:
        return this.elseControl();
      case T.End:
        return { type: 'end', pos: this.expect(T.RightDelim, 'end').pos, tree: this.tree };
      case T.If:
        return this.branch('if');
      case T.Range:
        return this.branch('range');
      case T.Template:
        return this.templateControl();
      case T.With:
        return this.branch('with');
    }
    this.backup();
    const t = this.peek();
    return { type: 'action', pos: t.pos, line: t.line, tree: this.tree, pipe: pipeline(this, 'command', T.RightDelim) };
  }

  loopControl(token: Item): Node {
    const word = token.typ === T.Break ? 'break' : 'continue';
    const next = this.nextNonSpace();
    if (next.typ !== T.RightDelim) this.unexpected(next, `{{${word}}}`);
    if (this.rangeDepth === 0) this.errorf(`{{${word}}} outside {{range}}`);
    return { type: word, pos: token.pos, line: token.line, tree: this.tree };
  }

  branch(kind: 'if' | 'range' | 'with'): Node {
    const [pipe, list, elseList] = parseControl(this, kind === 'if', kind);
    return { type: kind, pos: pipe.pos, line: pipe.line, tree: this.tree, pipe, list, elseList };
  }

  elseControl(): Node {
    const peek = this.peekNonSpace();
    if (peek.typ === T.If) return { type: 'else', pos: peek.pos, line: peek.line, tree: this.tree };
    const token = this.expect(T.RightDelim, 'else');
    return { type: 'else', pos: token.pos, line: token.line, tree: this.tree };
  }

  blockControl(): Node {
    const context = 'block clause';
    const token = this.nextNonSpace();
    const name = this.parseTemplateName(token, context);
    const pipe = pipeline(this, context, T.RightDelim);
    const block = this.child(name);
    const [list, end] = block.itemList();
    block.tree.root = list;
    if (end.type !== 'end') this.errorf(`unexpected ${nodeStr(end)} in ${context}`);
    block.add();
    return { type: 'template', pos: token.pos, line: token.line, tree: this.tree, name, pipe };
  }

  templateControl(): Node {
    const context = 'template clause';
    const token = this.nextNonSpace();
    const name = this.parseTemplateName(token, context);
    let pipe: PipeNode | null = null;
    if (this.nextNonSpace().typ !== T.RightDelim) {
      this.backup();
      pipe = pipeline(this, context, T.RightDelim);
    }
    return { type: 'template', pos: token.pos, line: token.line, tree: this.tree, name, pipe };
  }

  parseTemplateName(token: Item, context: string): string {
    if (token.typ === T.String || token.typ === T.RawString) return this.unquote(token.val);
    this.unexpected(token, context);
  }
}

function nodeStr(n: Node): string {
  return n.type === 'end' ? '{{end}}' : n.type === 'else' ? '{{else}}' : '';
}

// unicode.IsSpace, which bytes.TrimSpace uses (unlike String.trim, it excludes U+FEFF).
const goSpaceOnly = /^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*$/;

/** parse.IsEmptyTree. */
export function isEmptyTree(n: Node | null): boolean {
  if (n === null) return true;
  switch (n.type) {
    case 'comment':
      return true;
    case 'list':
      return n.nodes.every(isEmptyTree);
    case 'text':
      return goSpaceOnly.test(n.text);
    default:
      return false;
  }
}

/** Parses text into a set of named trees, as parse.Parse does. */
export function parseTrees(name: string, text: string, hasFunction: (n: string) => boolean): Map<string, Tree> {
  const treeSet = new Map<string, Tree>();
  const lexer = new Lexer(text);
  const p = new Parser(name, name, text, new ItemStream(lexer.items), treeSet, hasFunction);
  p.parse();
  p.add();
  return treeSet;
}
