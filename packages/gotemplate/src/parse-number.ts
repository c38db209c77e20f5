// parse.newNumber: Go's rules for what a numeric literal can be (int, uint, float, complex).
import { T } from './lex.js';
import type { NumberNode, Tree } from './nodes.js';
import { quote, unquoteChar } from './quote.js';

const I64_MIN = -(2n ** 63n);
const I64_MAX = 2n ** 63n - 1n;
const U64_MAX = 2n ** 64n - 1n;

/** underscoreOK from strconv: underscores only between digits or after a base prefix. */
function underscoreOK(s: string): boolean {
  let saw = '^';
  let i = 0;
  if (s[0] === '+' || s[0] === '-') s = s.slice(1);
  let hex = false;
  if (s.length >= 2 && s[0] === '0' && 'bBoOxX'.includes(s[1]!)) {
    i = 2;
    saw = '0';
    hex = s[1] === 'x' || s[1] === 'X';
  }
  for (; i < s.length; i++) {
    const c = s[i]!;
    if ((c >= '0' && c <= '9') || (hex && /[a-fA-F]/.test(c))) saw = '0';
    else if (c === '_') {
      if (saw !== '0') return false;
      saw = '_';
    } else {
      if (saw === '_') return false;
      saw = '!';
    }
  }
  return saw !== '_';
}

/** strconv.ParseInt(s, 0, 64) (signed) or ParseUint(s, 0, 64); null on any error. */
function parseInteger(s: string, signed: boolean): bigint | null {
  let neg = false;
  let body = s;
  if (signed && (body[0] === '+' || body[0] === '-')) {
    neg = body[0] === '-';
    body = body.slice(1);
  }
  let base = 10;
  let digits = body;
  if (/^0[xX]/.test(body)) [base, digits] = [16, body.slice(2)];
  else if (/^0[bB]/.test(body)) [base, digits] = [2, body.slice(2)];
  else if (/^0[oO]/.test(body)) [base, digits] = [8, body.slice(2)];
  else if (body.length > 1 && body[0] === '0') [base, digits] = [8, body.slice(1)];
  if (body.includes('_') && !underscoreOK(body)) return null;
  digits = digits.replaceAll('_', '');
  const valid = { 2: /^[01]+$/, 8: /^[0-7]+$/, 10: /^[0-9]+$/, 16: /^[0-9a-fA-F]+$/ }[base]!;
  if (!valid.test(digits)) return null;
  const prefix = base === 16 ? '0x' : base === 8 ? '0o' : base === 2 ? '0b' : '';
  let v = BigInt(prefix + digits);
  if (neg) v = -v;
  if (signed ? v < I64_MIN || v > I64_MAX : v > U64_MAX) return null;
  return v;
}

/** strconv.ParseFloat(s, 64); null on syntax or range errors. */
export function parseFloat64(s: string): number | null {
  if (s.includes('_') && !underscoreOK(s)) return null;
  const t = s.replaceAll('_', '');
  let v: number;
  const hex = /^([+-]?)0[xX]([0-9a-fA-F]*)(?:\.([0-9a-fA-F]*))?[pP]([+-]?\d+)$/.exec(t);
  if (hex) {
    const [, sign, int = '', frac = ''] = hex;
    if (int + frac === '') return null;
    const mant = Number.parseInt(int + frac || '0', 16);
    v = mant * 2 ** (Number(hex[4]) - 4 * frac.length);
    if (sign === '-') v = -v;
  } else {
    if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(t)) return null;
    v = Number(t);
  }
  return Number.isFinite(v) ? v : null;
}

export function newNumber(tree: Tree, pos: number, text: string, typ: T): NumberNode {
  const n: NumberNode = {
    type: 'number',
    pos,
    tree,
    text,
    isInt: false,
    isUint: false,
    isFloat: false,
    isComplex: false,
    int: 0n,
    uint: 0n,
    float: 0,
  };
  if (typ === T.CharConstant) return charConstant(n, text);
  if (typ === T.Complex || (text.endsWith('i') && parseFloat64(text.slice(0, -1)) !== null)) {
    // Complex values have no representation here; execution reports it (documented divergence).
    n.isComplex = true;
    return n;
  }
  const u = parseInteger(text, false);
  if (u !== null) [n.isUint, n.uint] = [true, u];
  const i = parseInteger(text, true);
  if (i !== null) {
    [n.isInt, n.int] = [true, i];
    if (i === 0n) [n.isUint, n.uint] = [true, u ?? 0n];
  }
  if (n.isInt) [n.isFloat, n.float] = [true, Number(n.int)];
  else if (n.isUint) [n.isFloat, n.float] = [true, Number(n.uint)];
  else {
    const f = parseFloat64(text);
    if (f !== null) {
      if (!/[.eEpP]/.test(text)) throw new Error(`integer overflow: ${quote(text)}`);
      [n.isFloat, n.float] = [true, f];
      if (Number.isInteger(f) && f >= -(2 ** 63) && f < 2 ** 63) [n.isInt, n.int] = [true, BigInt(f)];
      if (Number.isInteger(f) && f >= 0 && f < 2 ** 64) [n.isUint, n.uint] = [true, BigInt(f)];
    }
  }
  if (!n.isInt && !n.isUint && !n.isFloat) throw new Error(`illegal number syntax: ${quote(text)}`);
  return n;
}

function charConstant(n: NumberNode, text: string): NumberNode {
  const [ch, next] = unquoteChar(text, 1, "'");
  if (text.slice(next) !== "'") throw new Error(`malformed character constant: ${text}`);
  const cp = BigInt(ch.codePointAt(0)!);
  Object.assign(n, { isInt: true, int: cp, isUint: true, uint: cp, isFloat: true, float: Number(cp) });
  return n;
}
