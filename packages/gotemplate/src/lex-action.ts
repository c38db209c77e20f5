// Lexing inside {{ }}: operators, quotes, numbers, identifiers, fields and variables.
import { EOF, hashU, hasRightTrimMarker, isSpace, keywords, type Lexer, lexRightDelim, T } from './lex.js';
import { quote } from './quote.js';
import { isAlphaNumeric, isPrint } from './unicode.js';

type StateFn = ((l: Lexer) => StateFn) | null;

export function lexInsideAction(l: Lexer): StateFn {
  const [delim] = l.atRightDelim();
  if (delim) {
    if (l.parenDepth === 0) return lexRightDelim;
    return l.errorf('unclosed left paren');
  }
  const r = l.next();
  if (r === EOF) return l.errorf('unclosed action');
  if (isSpace(r)) {
    l.backup(); // Put space back in case we have " -}}".
    return lexSpace;
  }
  const c = String.fromCodePoint(r);
  switch (c) {
    case '=':
      l.emit(T.Assign);
      return lexInsideAction;
    case ':':
      if (l.next() !== 0x3d) return l.errorf('expected :=');
      l.emit(T.Declare);
      return lexInsideAction;
    case '|':
      l.emit(T.Pipe);
      return lexInsideAction;
    case '"':
      return lexQuote;
    case '`':
      return lexRawQuote;
    case '$':
      return lexVariable;
    case "'":
      return lexChar;
    case '(':
      l.emit(T.LeftParen);
      l.parenDepth++;
      return lexInsideAction;
    case ')':
      l.emit(T.RightParen);
      l.parenDepth--;
      if (l.parenDepth < 0) return l.errorf(`unexpected right paren ${hashU(r)}`);
      return lexInsideAction;
  }
  return lexOther(l, r, c);
}

function lexOther(l: Lexer, r: number, c: string): StateFn {
  if (c === '.') {
    const n = l.input.charCodeAt(l.pos);
    if (l.pos < l.input.length && (n < 0x30 || n > 0x39)) return lexField;
  }
  if (c === '.' || c === '+' || c === '-' || (c >= '0' && c <= '9')) {
    l.backup();
    return lexNumber;
  }
  if (isAlphaNumeric(r)) {
    l.backup();
    return lexIdentifier;
  }
  if (r <= 0x7f && isPrint(r)) {
    l.emit(T.Char);
    return lexInsideAction;
  }
  return l.errorf(`unrecognized character in action: ${hashU(r)}`);
}

function lexSpace(l: Lexer): StateFn {
  let numSpaces = 0;
  while (isSpace(l.peek())) {
    l.next();
    numSpaces++;
  }
  if (hasRightTrimMarker(l.input.slice(l.pos - 1, l.pos + 1)) && l.input.startsWith(l.rightDelim, l.pos + 1)) {
    l.backup(); // Before the space.
    if (numSpaces === 1) return lexRightDelim;
  }
  l.emit(T.Space);
  return lexInsideAction;
}

function lexIdentifier(l: Lexer): StateFn {
  for (;;) {
    const r = l.next();
    if (r !== EOF && isAlphaNumeric(r)) continue;
    l.backup();
    const word = l.input.slice(l.start, l.pos);
    if (!l.atTerminator()) return l.errorf(`bad character ${hashU(r)}`);
    const kw = keywords[word];
    if (kw !== undefined && kw > T.Keyword) l.emit(kw);
    else if (word[0] === '.') l.emit(T.Field);
    else if (word === 'true' || word === 'false') l.emit(T.Bool);
    else l.emit(T.Identifier);
    return lexInsideAction;
  }
}

const lexField = (l: Lexer): StateFn => lexFieldOrVariable(l, T.Field);

function lexVariable(l: Lexer): StateFn {
  if (l.atTerminator()) {
    l.emit(T.Variable);
    return lexInsideAction;
  }
  return lexFieldOrVariable(l, T.Variable);
}

function lexFieldOrVariable(l: Lexer, typ: T): StateFn {
  if (l.atTerminator()) {
    l.emit(typ === T.Variable ? T.Variable : T.Dot);
    return lexInsideAction;
  }
  let r: number;
  for (;;) {
    r = l.next();
    if (r === EOF || !isAlphaNumeric(r)) {
      l.backup();
      break;
    }
  }
  if (!l.atTerminator()) return l.errorf(`bad character ${hashU(r)}`);
  l.emit(typ);
  return lexInsideAction;
}

function lexQuoted(l: Lexer, q: number, typ: T, msg: string): StateFn {
  for (;;) {
    let r = l.next();
    if (r === 0x5c) {
      r = l.next();
      if (r !== EOF && r !== 10) continue;
    }
    if (r === EOF || r === 10) return l.errorf(msg);
    if (r === q) break;
  }
  l.emit(typ);
  return lexInsideAction;
}

const lexChar = (l: Lexer): StateFn => lexQuoted(l, 0x27, T.CharConstant, 'unterminated character constant');
const lexQuote = (l: Lexer): StateFn => lexQuoted(l, 0x22, T.String, 'unterminated quoted string');

function lexRawQuote(l: Lexer): StateFn {
  for (;;) {
    const r = l.next();
    if (r === EOF) return l.errorf('unterminated raw quoted string');
    if (r === 0x60) break;
  }
  l.emit(T.RawString);
  return lexInsideAction;
}

function lexNumber(l: Lexer): StateFn {
  if (!scanNumber(l)) return l.errorf(`bad number syntax: ${quote(l.input.slice(l.start, l.pos))}`);
  const sign = l.peek();
  if (sign === 0x2b || sign === 0x2d) {
    if (!scanNumber(l) || l.input[l.pos - 1] !== 'i') {
      return l.errorf(`bad number syntax: ${quote(l.input.slice(l.start, l.pos))}`);
    }
    l.emit(T.Complex);
  } else l.emit(T.Number);
  return lexInsideAction;
}

function scanNumber(l: Lexer): boolean {
  l.accept('+-');
  let digits = '0123456789_';
  if (l.accept('0')) {
    if (l.accept('xX')) digits = '0123456789abcdefABCDEF_';
    else if (l.accept('oO')) digits = '01234567_';
    else if (l.accept('bB')) digits = '01_';
  }
  l.acceptRun(digits);
  if (l.accept('.')) l.acceptRun(digits);
  if (digits.length === 11 && l.accept('eE')) {
    l.accept('+-');
    l.acceptRun('0123456789_');
  }
  if (digits.length === 23 && l.accept('pP')) {
    l.accept('+-');
    l.acceptRun('0123456789_');
  }
  l.accept('i');
  const p = l.peek();
  if (p !== EOF && isAlphaNumeric(p)) {
    l.next();
    return false;
  }
  return true;
}
