// strconv's quoting and unquoting, as fmt's %q and the template parser use them.
import { isPrint } from './unicode.js';

const hexDigits = '0123456789abcdef';

function escapeRune(cp: number, quote: number, asciiOnly: boolean): string {
  if (cp === quote || cp === 0x5c) return `\\${String.fromCodePoint(cp)}`;
  if (asciiOnly ? cp < 0x80 && isPrint(cp) : isPrint(cp)) return String.fromCodePoint(cp);
  switch (cp) {
    case 7:
      return '\\a';
    case 8:
      return '\\b';
    case 12:
      return '\\f';
    case 10:
      return '\\n';
    case 13:
      return '\\r';
    case 9:
      return '\\t';
    case 11:
      return '\\v';
  }
  if (cp < 0x20 || cp === 0x7f) return `\\x${hexDigits[cp >> 4]}${hexDigits[cp & 15]}`;
  // Lone surrogates stand for invalid UTF-8, which Go shows as the replacement character.
  if (cp >= 0xd800 && cp <= 0xdfff) return '\\ufffd';
  if (cp < 0x10000) return `\\u${cp.toString(16).padStart(4, '0')}`;
  return `\\U${cp.toString(16).padStart(8, '0')}`;
}

/** strconv.Quote (or QuoteToASCII when asciiOnly). */
export function quote(s: string, asciiOnly = false): string {
  let out = '"';
  for (const ch of s) out += escapeRune(ch.codePointAt(0)!, 0x22, asciiOnly);
  return `${out}"`;
}

/** strconv.QuoteRune (or QuoteRuneToASCII). */
export function quoteRune(cp: number, asciiOnly = false): string {
  if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) cp = 0xfffd;
  return `'${escapeRune(cp, 0x27, asciiOnly)}'`;
}

/** strconv.CanBackquote. */
export function canBackquote(s: string): boolean {
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (cp === 0xfeff) return false;
    if ((cp < 0x20 && cp !== 9) || cp === 0x60 || cp === 0x7f) return false;
  }
  return true;
}

export class SyntaxError_ extends Error {
  constructor() {
    super('invalid syntax');
  }
}

const simpleEscapes: Record<string, string> = {
  a: '\x07',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
};

/** strconv.UnquoteChar: decodes one character of s at i; returns it and the next index. */
export function unquoteChar(s: string, i: number, quote: string): [string, number] {
  const c = s[i];
  if (c === undefined) throw new SyntaxError_();
  if (c === quote && (quote === "'" || quote === '"')) throw new SyntaxError_();
  if (c !== '\\') {
    const cp = s.codePointAt(i)!;
    return [String.fromCodePoint(cp), i + (cp > 0xffff ? 2 : 1)];
  }
  const e = s[i + 1];
  if (e === undefined) throw new SyntaxError_();
  if (e in simpleEscapes) return [simpleEscapes[e]!, i + 2];
  if (e === "'" || e === '"') {
    if (e !== quote) throw new SyntaxError_();
    return [e, i + 2];
  }
  const hexLen = e === 'x' ? 2 : e === 'u' ? 4 : e === 'U' ? 8 : 0;
  if (hexLen > 0) return hexEscape(s, i + 2, hexLen, e === 'x');
  if (e >= '0' && e <= '7') {
    const oct = s.slice(i + 1, i + 4);
    if (!/^[0-7]{3}$/.test(oct)) throw new SyntaxError_();
    const v = Number.parseInt(oct, 8);
    if (v > 255) throw new SyntaxError_();
    return [byteChar(v), i + 4];
  }
  throw new SyntaxError_();
}

function hexEscape(s: string, at: number, n: number, isByte: boolean): [string, number] {
  const h = s.slice(at, at + n);
  if (h.length !== n || !/^[0-9a-fA-F]+$/.test(h)) throw new SyntaxError_();
  const v = Number.parseInt(h, 16);
  if (isByte) return [byteChar(v), at + n];
  if (v > 0x10ffff || (v >= 0xd800 && v < 0xe000)) throw new SyntaxError_();
  return [String.fromCodePoint(v), at + n];
}

// A single byte escape (\xNN, \NNN) above 0x7f is not valid UTF-8 on its own; JS strings cannot
// hold raw bytes, so it becomes U+FFFD (documented divergence).
function byteChar(v: number): string {
  return v < 0x80 ? String.fromCharCode(v) : '\ufffd';
}

/** strconv.Unquote for "..." and `...` literals. */
export function unquote(s: string): string {
  const q = s[0];
  if (s.length < 2 || s[s.length - 1] !== q) throw new SyntaxError_();
  const body = s.slice(1, -1);
  if (q === '`') {
    if (body.includes('`')) throw new SyntaxError_();
    return body.replaceAll('\r', '');
  }
  if (q !== '"') throw new SyntaxError_();
  if (body.includes('\n')) throw new SyntaxError_();
  let out = '';
  for (let i = 0; i < body.length; ) {
    const [ch, next] = unquoteChar(body, i, '"');
    out += ch;
    i = next;
  }
  return out;
}
