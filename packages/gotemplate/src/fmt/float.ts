import { fmtX } from './float-hex.js';

// strconv.FormatFloat for float64: shortest digits come from JavaScript (both pick the shortest
// round-tripping digits closest to the value); fixed precisions are rounded from the exact binary
// value, half to even like Go, because toFixed/toPrecision round exact ties away from zero.

interface Digits {
  d: string; // significant digits, no leading zeros; '' for zero
  dp: number; // decimal point position relative to the start of d
}

const view = new DataView(new ArrayBuffer(8));

function decompose(x: number): { mant: bigint; exp: number } {
  view.setFloat64(0, x);
  const hi = view.getUint32(0);
  const lo = view.getUint32(4);
  const bexp = (hi >>> 20) & 0x7ff;
  let mant = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  if (bexp === 0) return { mant, exp: -1074 };
  mant |= 1n << 52n;
  return { mant, exp: bexp - 1075 };
}

/** The exact decimal expansion of |x| (finite). */
function exactDigits(x: number): Digits {
  if (x === 0) return { d: '', dp: 0 };
  const { mant, exp } = decompose(Math.abs(x));
  let d: string;
  let dp: number;
  if (exp >= 0) {
    d = (mant << BigInt(exp)).toString();
    dp = d.length;
  } else {
    d = (mant * 5n ** BigInt(-exp)).toString();
    dp = d.length + exp;
  }
  return { d: d.replace(/0+$/, ''), dp };
}

function shortestDigits(x: number): Digits {
  if (x === 0) return { d: '', dp: 0 };
  const s = Math.abs(x).toExponential();
  const e = s.indexOf('e');
  return { d: s.slice(0, e).replace('.', ''), dp: Number(s.slice(e + 1)) + 1 };
}

/** decimal.Round(nd) on exact digits: ties go to even. */
function roundDigits(x: Digits, nd: number): Digits {
  const { d } = x;
  if (nd < 0 || nd >= d.length) return x;
  const c = d.charCodeAt(nd);
  const up = c > 0x35 || (c === 0x35 && (nd + 1 < d.length || (nd > 0 && (d.charCodeAt(nd - 1) - 0x30) % 2 === 1)));
  if (!up) return trimZeros({ d: d.slice(0, nd), dp: x.dp });
  let i = nd - 1;
  while (i >= 0 && d[i] === '9') i--;
  if (i < 0) return { d: '1', dp: x.dp + 1 };
  return { d: d.slice(0, i) + String.fromCharCode(d.charCodeAt(i) + 1), dp: x.dp };
}

function trimZeros(x: Digits): Digits {
  const d = x.d.replace(/0+$/, '');
  return d === '' ? { d: '', dp: 0 } : { d, dp: x.dp };
}

function fmtE(neg: boolean, x: Digits, prec: number, e: string): string {
  let out = neg ? '-' : '';
  out += x.d.length ? x.d[0] : '0';
  if (prec > 0) out += `.${x.d.slice(1, prec + 1).padEnd(prec, '0')}`;
  let exp = x.d.length === 0 ? 0 : x.dp - 1;
  const sign = exp < 0 ? '-' : '+';
  exp = Math.abs(exp);
  return `${out}${e}${sign}${exp < 10 ? `0${exp}` : exp}`;
}

function fmtF(neg: boolean, x: Digits, prec: number): string {
  let out = neg ? '-' : '';
  if (x.dp > 0) out += x.d.slice(0, x.dp).padEnd(x.dp, '0');
  else out += '0';
  if (prec > 0) {
    let frac = '';
    for (let i = 0; i < prec; i++) {
      const j = x.dp + i;
      frac += j >= 0 && j < x.d.length ? x.d[j] : '0';
    }
    out += `.${frac}`;
  }
  return out;
}

function fmtB(x: number): string {
  const { mant, exp } = decompose(Math.abs(x));
  const e = x === 0 ? -1074 : exp;
  return `${x < 0 || Object.is(x, -0) ? '-' : ''}${mant}p${e >= 0 ? '+' : ''}${e}`;
}

function hexFloat(x: number, fmt: 'x' | 'X', prec: number): string {
  const { mant, exp } = decompose(Math.abs(x));
  const neg = x < 0 || Object.is(x, -0);
  return fmtX(prec, fmt, neg, mant, x === 0 ? 0 : exp + 52);
}

/** strconv.FormatFloat(x, fmt, prec, 64) for fmt in b e E f g G x X. */
export function formatFloat(x: number, fmt: string, prec: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x > 0 ? '+Inf' : '-Inf';
  if (fmt === 'b') return fmtB(x);
  if (fmt === 'x' || fmt === 'X') return hexFloat(x, fmt, prec);
  const neg = x < 0 || Object.is(x, -0);
  const shortest = prec < 0;
  let digs: Digits;
  if (shortest) {
    digs = shortestDigits(x);
    if (fmt === 'e' || fmt === 'E') prec = Math.max(digs.d.length - 1, 0);
    else if (fmt === 'f') prec = Math.max(digs.d.length - digs.dp, 0);
    else prec = digs.d.length;
  } else {
    const exact = exactDigits(x);
    if (fmt === 'f') digs = roundDigits(exact, exact.dp + prec);
    else if (fmt === 'e' || fmt === 'E') digs = roundDigits(exact, prec + 1);
    else {
      if (prec === 0) prec = 1;
      digs = roundDigits(exact, prec);
    }
  }
  return formatDigits(neg, digs, prec, fmt, shortest);
}

function formatDigits(neg: boolean, digs: Digits, prec: number, fmt: string, shortest: boolean): string {
  if (fmt === 'e' || fmt === 'E') return fmtE(neg, digs, prec, fmt);
  if (fmt === 'f') return fmtF(neg, digs, prec);
  const nd = digs.d.length;
  let eprec = prec;
  if (eprec > nd && nd >= digs.dp) eprec = nd;
  if (shortest) eprec = 6;
  const exp = digs.dp - 1;
  if (exp < -4 || exp >= eprec) {
    if (prec > nd) prec = nd;
    return fmtE(neg, digs, prec - 1, fmt === 'g' ? 'e' : 'E');
  }
  if (prec > digs.dp) prec = nd;
  return fmtF(neg, digs, Math.max(prec - digs.dp, 0));
}
