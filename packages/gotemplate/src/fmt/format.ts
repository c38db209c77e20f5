// Go's fmt/format.go: flags, padding and the per-kind formatters that write into a buffer.
import { canBackquote, quote, quoteRune } from '../quote.js';
import { isPrint, runeCount, utf8Bytes } from '../unicode.js';
import { formatFloat } from './float.js';

const ldigits = '0123456789abcdefx';
const udigits = '0123456789ABCDEFX';

export class Fmt {
  buf = '';
  wid = 0;
  prec = 0;
  widPresent = false;
  precPresent = false;
  minus = false;
  plus = false;
  sharp = false;
  space = false;
  zero = false;
  plusV = false;
  sharpV = false;

  clearflags(): void {
    this.wid = this.prec = 0;
    this.widPresent = this.precPresent = false;
    this.minus = this.plus = this.sharp = this.space = this.zero = this.plusV = this.sharpV = false;
  }

  writePadding(n: number): void {
    if (n > 0) this.buf += (this.zero ? '0' : ' ').repeat(n);
  }

  pad(s: string): void {
    if (!this.widPresent || this.wid === 0) {
      this.buf += s;
      return;
    }
    const width = this.wid - runeCount(s);
    if (!this.minus) {
      this.writePadding(width);
      this.buf += s;
    } else {
      this.buf += s;
      this.writePadding(width);
    }
  }

  fmtBoolean(v: boolean): void {
    this.pad(v ? 'true' : 'false');
  }

  fmtUnicode(u: bigint): void {
    let prec = 4;
    if (this.precPresent && this.prec > 4) prec = this.prec;
    let s = `U+${u.toString(16).toUpperCase().padStart(prec, '0')}`;
    if (this.sharp && u <= 0x10ffffn && isPrint(Number(u))) s += ` '${String.fromCodePoint(Number(u))}'`;
    const oldZero = this.zero;
    this.zero = false;
    this.pad(s);
    this.zero = oldZero;
  }

  fmtInteger(v: bigint, base: number, verb: string, upper: boolean): void {
    const negative = v < 0n;
    const u = negative ? -v : v;
    const digits = upper ? udigits : ldigits;
    let prec = 0;
    if (this.precPresent) {
      prec = this.prec;
      if (prec === 0 && u === 0n) {
        const oldZero = this.zero;
        this.zero = false;
        this.writePadding(this.wid);
        this.zero = oldZero;
        return;
      }
    } else if (this.zero && this.widPresent) {
      prec = this.wid;
      if (negative || this.plus || this.space) prec--;
    }
    let s = u.toString(base);
    if (upper) s = s.toUpperCase();
    if (s.length < prec) s = s.padStart(prec, '0');
    if (this.sharp) {
      if (base === 2) s = `0b${s}`;
      else if (base === 8 && s[0] !== '0') s = `0${s}`;
      else if (base === 16) s = `0${digits[16]}${s}`;
    }
    if (verb === 'O') s = `0o${s}`;
    if (negative) s = `-${s}`;
    else if (this.plus) s = `+${s}`;
    else if (this.space) s = ` ${s}`;
    const oldZero = this.zero;
    this.zero = false;
    this.pad(s);
    this.zero = oldZero;
  }

  truncateString(s: string): string {
    if (this.precPresent) {
      let n = this.prec;
      let i = 0;
      for (const ch of s) {
        if (--n < 0) return s.slice(0, i);
        i += ch.length;
      }
    }
    return s;
  }

  fmtS(s: string): void {
    this.pad(this.truncateString(s));
  }

  fmtSx(s: string, upper: boolean): void {
    const digits = upper ? udigits : ldigits;
    const b = utf8Bytes(s);
    let length = b.length;
    if (this.precPresent && this.prec < length) length = this.prec;
    let width = 2 * length;
    if (width <= 0) {
      if (this.widPresent) this.writePadding(this.wid);
      return;
    }
    if (this.space) {
      if (this.sharp) width *= 2;
      width += length - 1;
    } else if (this.sharp) width += 2;
    if (this.widPresent && this.wid > width && !this.minus) this.writePadding(this.wid - width);
    let out = this.sharp ? `0${digits[16]}` : '';
    for (let i = 0; i < length; i++) {
      if (this.space && i > 0) out += this.sharp ? ` 0${digits[16]}` : ' ';
      const c = b[i]!;
      out += digits[c >> 4]! + digits[c & 15]!;
    }
    this.buf += out;
    if (this.widPresent && this.wid > width && this.minus) this.writePadding(this.wid - width);
  }

  fmtQ(s: string): void {
    s = this.truncateString(s);
    if (this.sharp && canBackquote(s)) this.pad(`\`${s}\``);
    else this.pad(quote(s, this.plus));
  }

  fmtC(c: bigint): void {
    this.pad(String.fromCodePoint(c > 0x10ffffn || (c >= 0xd800n && c < 0xe000n) ? 0xfffd : Number(c)));
  }

  fmtQc(c: bigint): void {
    this.pad(quoteRune(c > 0x10ffffn ? 0xfffd : Number(c), this.plus));
  }

  fmtFloat(v: number, verb: string, prec: number): void {
    if (this.precPresent) prec = this.prec;
    let num = formatFloat(v, verb === 'F' ? 'f' : verb, prec);
    if (num[0] !== '-' && num[0] !== '+') num = `+${num}`;
    if (this.space && num[0] === '+' && !this.plus) num = ` ${num.slice(1)}`;
    if (num[1] === 'I' || num[1] === 'N') {
      const oldZero = this.zero;
      this.zero = false;
      if (num[1] === 'N' && !this.space && !this.plus) num = num.slice(1);
      this.pad(num);
      this.zero = oldZero;
      return;
    }
    if (this.sharp && verb !== 'b') num = sharpFloat(num, verb, prec);
    if (this.plus || num[0] !== '+') {
      if (this.zero && this.widPresent && this.wid > num.length) {
        this.buf += num[0];
        this.writePadding(this.wid - num.length);
        this.buf += num.slice(1);
        return;
      }
      this.pad(num);
      return;
    }
    this.pad(num.slice(1));
  }
}

/** The '#' flag: keep the decimal point and, for %g, trailing zeros up to the precision. */
function sharpFloat(num: string, verb: string, prec: number): string {
  let digits = 0;
  if (verb === 'v' || verb === 'g' || verb === 'G' || verb === 'x') digits = prec === -1 ? 6 : prec;
  let tail = '';
  let hasDecimalPoint = false;
  let sawNonzeroDigit = false;
  for (let i = 1; i < num.length; i++) {
    const c = num[i]!;
    if (c === '.') hasDecimalPoint = true;
    else if (c === 'p' || c === 'P' || ((c === 'e' || c === 'E') && verb !== 'x' && verb !== 'X')) {
      tail = num.slice(i);
      num = num.slice(0, i);
      break;
    } else {
      if (c !== '0') sawNonzeroDigit = true;
      if (sawNonzeroDigit) digits--;
    }
  }
  if (!hasDecimalPoint) {
    if (num.length === 2 && num[1] === '0') digits--;
    num += '.';
  }
  if (digits > 0) num += '0'.repeat(digits);
  return num + tail;
}
