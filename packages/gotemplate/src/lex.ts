// The lexer of Go's text/template/parse, producing the same items (and error items) in order.
// lex-action.ts and this file call each other only while lexing, never at module load.
import { lexInsideAction } from './lex-action.js';
import { isPrint } from './unicode.js';

export enum T {
  Error,
  Bool,
  Char,
  CharConstant,
  Comment,
  Complex,
  Assign,
  Declare,
  EOF,
  Field,
  Identifier,
  LeftDelim,
  LeftParen,
  Number,
  Pipe,
  RawString,
  RightDelim,
  RightParen,
  Space,
  String,
  Text,
  Variable,
  Keyword,
  Block,
  Break,
  Continue,
  Dot,
  Define,
  Else,
  End,
  If,
  Nil,
  Range,
  Template,
  With,
}

export interface Item {
  typ: T;
  pos: number;
  val: string;
  line: number;
}

const keywords: Record<string, T> = {
  '.': T.Dot,
  block: T.Block,
  break: T.Break,
  continue: T.Continue,
  define: T.Define,
  else: T.Else,
  end: T.End,
  if: T.If,
  range: T.Range,
  nil: T.Nil,
  template: T.Template,
  with: T.With,
};

const EOF = -1;
const isSpace = (r: number): boolean => r === 0x20 || r === 9 || r === 13 || r === 10;
const spaceRe = /[ \t\r\n]+$/;
const leftSpaceRe = /^[ \t\r\n]+/;

/** Go's %#U: U+0023 '#'. */
export function hashU(r: number): string {
  const s = `U+${r.toString(16).toUpperCase().padStart(4, '0')}`;
  return isPrint(r) ? `${s} '${String.fromCodePoint(r)}'` : s;
}

type StateFn = ((l: Lexer) => StateFn) | null;

export class Lexer {
  readonly items: Item[] = [];
  pos = 0;
  start = 0;
  atEOF = false;
  parenDepth = 0;
  line = 1;
  startLine = 1;

  constructor(
    readonly input: string,
    readonly leftDelim = '{{',
    readonly rightDelim = '}}',
  ) {
    for (let state: StateFn = lexText; state !== null; ) state = state(this);
  }

  next(): number {
    if (this.pos >= this.input.length) {
      this.atEOF = true;
      return EOF;
    }
    const r = this.input.codePointAt(this.pos)!;
    this.pos += r > 0xffff ? 2 : 1;
    if (r === 10) this.line++;
    return r;
  }

  peek(): number {
    const r = this.next();
    this.backup();
    return r;
  }

  backup(): void {
    if (!this.atEOF && this.pos > 0) {
      const c = this.input.charCodeAt(this.pos - 1);
      this.pos -= c >= 0xdc00 && c <= 0xdfff && this.pos > 1 ? 2 : 1;
      if (c === 10) this.line--;
    }
  }

  emit(typ: T): void {
    this.items.push({ typ, pos: this.start, val: this.input.slice(this.start, this.pos), line: this.startLine });
    this.start = this.pos;
    this.startLine = this.line;
  }

  ignore(): void {
    this.line += countNewlines(this.input, this.start, this.pos);
    this.start = this.pos;
    this.startLine = this.line;
  }

  accept(valid: string): boolean {
    const r = this.next();
    if (r !== EOF && valid.includes(String.fromCodePoint(r))) return true;
    this.backup();
    return false;
  }

  acceptRun(valid: string): void {
    for (let r = this.next(); r !== EOF && valid.includes(String.fromCodePoint(r)); r = this.next()) {}
    this.backup();
  }

  errorf(msg: string): StateFn {
    this.items.push({ typ: T.Error, pos: this.start, val: msg, line: this.startLine });
    return null;
  }

  atRightDelim(): [boolean, boolean] {
    const at = this.pos;
    if (hasRightTrimMarker(this.input.slice(at, at + 2)) && this.input.startsWith(this.rightDelim, at + 2)) {
      return [true, true];
    }
    return [this.input.startsWith(this.rightDelim, at), false];
  }

  atTerminator(): boolean {
    const r = this.peek();
    if (isSpace(r)) return true;
    switch (r) {
      case EOF:
      case 0x2e:
      case 0x2c:
      case 0x7c:
      case 0x3a:
      case 0x29:
      case 0x28:
        return true;
    }
    return this.input.startsWith(this.rightDelim, this.pos);
  }
}

function countNewlines(s: string, from: number, to: number): number {
  let n = 0;
  for (let i = s.indexOf('\n', from); i >= 0 && i < to; i = s.indexOf('\n', i + 1)) n++;
  return n;
}

const hasLeftTrimMarker = (s: string): boolean => s.length >= 2 && s[0] === '-' && isSpace(s.charCodeAt(1));
const hasRightTrimMarker = (s: string): boolean => s.length >= 2 && isSpace(s.charCodeAt(0)) && s[1] === '-';

function lexText(l: Lexer): StateFn {
  const x = l.input.indexOf(l.leftDelim, l.pos);
  if (x >= 0) {
    const ldn = l.leftDelim.length;
    l.pos = x;
    let trimLength = 0;
    if (hasLeftTrimMarker(l.input.slice(l.pos + ldn, l.pos + ldn + 2))) {
      const text = l.input.slice(l.start, l.pos);
      trimLength = text.length - text.replace(spaceRe, '').length;
    }
    l.pos -= trimLength;
    if (l.pos > l.start) {
      l.line += countNewlines(l.input, l.start, l.pos);
      l.emit(T.Text);
    }
    l.pos += trimLength;
    l.ignore();
    return lexLeftDelim;
  }
  l.pos = l.input.length;
  if (l.pos > l.start) {
    l.line += countNewlines(l.input, l.start, l.pos);
    l.emit(T.Text);
  }
  l.emit(T.EOF);
  return null;
}

function lexLeftDelim(l: Lexer): StateFn {
  l.pos += l.leftDelim.length;
  const trimSpace = hasLeftTrimMarker(l.input.slice(l.pos, l.pos + 2));
  const afterMarker = trimSpace ? 2 : 0;
  if (l.input.startsWith('/*', l.pos + afterMarker)) {
    l.pos += afterMarker;
    l.ignore();
    return lexComment;
  }
  l.emit(T.LeftDelim);
  l.pos += afterMarker;
  l.ignore();
  l.parenDepth = 0;
  return lexInsideAction;
}

function lexComment(l: Lexer): StateFn {
  l.pos += 2;
  const i = l.input.indexOf('*/', l.pos);
  if (i < 0) return l.errorf('unclosed comment');
  l.pos = i + 2;
  const [delim, trimSpace] = l.atRightDelim();
  if (!delim) return l.errorf('comment ends before closing delimiter');
  if (trimSpace) l.pos += 2;
  l.pos += l.rightDelim.length;
  if (trimSpace) l.pos += leftTrimLength(l.input, l.pos);
  l.ignore();
  return lexText;
}

function leftTrimLength(s: string, at: number): number {
  const m = leftSpaceRe.exec(s.slice(at, at + 4096));
  if (!m) return 0;
  let n = m[0].length;
  // Runs longer than the window are rare; keep scanning without copying the rest of the input.
  while (at + n < s.length && isSpace(s.charCodeAt(at + n))) n++;
  return n;
}

function lexRightDelim(l: Lexer): StateFn {
  const trimSpace = hasRightTrimMarker(l.input.slice(l.pos, l.pos + 2));
  if (trimSpace) {
    l.pos += 2;
    l.ignore();
  }
  l.pos += l.rightDelim.length;
  l.emit(T.RightDelim);
  if (trimSpace) {
    l.pos += leftTrimLength(l.input, l.pos);
    l.ignore();
  }
  return lexText;
}

export { EOF, hasRightTrimMarker, isSpace, keywords, lexRightDelim };
