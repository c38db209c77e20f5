// fmt.Sprintf's format-string walk (Go's doPrintf), including argument indexes and * widths.
import { type GoInt, kindOf, typeName } from '../values.js';
import { Printer } from './print.js';

const tooLarge = (n: number): boolean => n > 1e6 || n < -1e6;

function intFromArg(a: readonly unknown[], argNum: number): [number, boolean, number] {
  let num = 0;
  let isInt = false;
  if (argNum < a.length) {
    const v = a[argNum];
    const k = kindOf(v);
    if (k === 'int' || k === 'uint') {
      const n = typeof v === 'bigint' ? v : (v as GoInt).value;
      if (n >= -(2n ** 63n) && n < 2n ** 63n) {
        num = Number(n);
        isInt = true;
      }
    }
    argNum++;
    if (tooLarge(num)) {
      num = 0;
      isInt = false;
    }
  }
  return [num, isInt, argNum];
}

/** parsenum: a decimal number at s[start:end]; [num, isnum, newi]. */
function parsenum(s: string, start: number, end: number): [number, boolean, number] {
  if (start >= end) return [0, false, end];
  let num = 0;
  let isnum = false;
  let i = start;
  for (; i < end && s[i]! >= '0' && s[i]! <= '9'; i++) {
    if (tooLarge(num)) return [0, false, end];
    num = num * 10 + (s.charCodeAt(i) - 48);
    isnum = true;
  }
  return [num, isnum, i];
}

function parseArgNumber(format: string): [number, number, boolean] {
  if (format.length < 3) return [0, 1, false];
  for (let i = 1; i < format.length; i++) {
    if (format[i] === ']') {
      const [width, ok, newi] = parsenum(format, 1, i);
      if (!ok || newi !== i) return [0, i + 1, false];
      return [width - 1, i + 1, true];
    }
  }
  return [0, 1, false];
}

class FormatState {
  reordered = false;
  goodArgNum = true;

  argNumber(argNum: number, format: string, i: number, numArgs: number): [number, number, boolean] {
    if (format.length <= i || format[i] !== '[') return [argNum, i, false];
    this.reordered = true;
    const [index, wid, ok] = parseArgNumber(format.slice(i));
    if (ok && index >= 0 && index < numArgs) return [index, i + wid, true];
    this.goodArgNum = false;
    return [argNum, i + wid, ok];
  }
}

/** Reads flags; returns the index after them, or -1 when a simple verb was printed directly. */
function readFlags(p: Printer, st: { argNum: number }, format: string, i: number, a: readonly unknown[]): number {
  const f = p.fmt;
  for (; i < format.length; i++) {
    const c = format[i]!;
    if (c === '#') f.sharp = true;
    else if (c === '0') f.zero = !f.minus;
    else if (c === '+') f.plus = true;
    else if (c === '-') {
      f.minus = true;
      f.zero = false;
    } else if (c === ' ') f.space = true;
    else {
      if (c >= 'a' && c <= 'z' && st.argNum < a.length) {
        if (c === 'v') {
          f.sharpV = f.sharp;
          f.sharp = false;
          f.plusV = f.plus;
          f.plus = false;
        }
        p.printArg(a[st.argNum], c);
        st.argNum++;
        return -(i + 2);
      }
      break;
    }
  }
  return i;
}

export function sprintf(format: string, a: readonly unknown[]): string {
  const p = new Printer();
  const f = p.fmt;
  const fs = new FormatState();
  const st = { argNum: 0 };
  const end = format.length;
  let afterIndex = false;
  let i = 0;
  while (i < end) {
    fs.goodArgNum = true;
    const lasti = i;
    while (i < end && format[i] !== '%') i++;
    if (i > lasti) p.write(format.slice(lasti, i));
    if (i >= end) break;
    i++;
    f.clearflags();
    const r = readFlags(p, st, format, i, a);
    if (r < 0) {
      i = -r - 1;
      continue;
    }
    i = r;
    [st.argNum, i, afterIndex] = fs.argNumber(st.argNum, format, i, a.length);
    [i, afterIndex] = widthAndPrecision(p, fs, st, format, i, a, afterIndex);
    if (!afterIndex) [st.argNum, i, afterIndex] = fs.argNumber(st.argNum, format, i, a.length);
    if (i >= end) {
      p.write('%!(NOVERB)');
      break;
    }
    const verb = String.fromCodePoint(format.codePointAt(i)!);
    i += verb.length;
    printVerb(p, fs, st, verb, a);
  }
  if (!fs.reordered && st.argNum < a.length) writeExtra(p, a.slice(st.argNum));
  return p.out;
}

function widthAndPrecision(
  p: Printer,
  fs: FormatState,
  st: { argNum: number },
  format: string,
  i: number,
  a: readonly unknown[],
  afterIndex: boolean,
): [number, boolean] {
  const f = p.fmt;
  const end = format.length;
  if (i < end && format[i] === '*') {
    i++;
    [f.wid, f.widPresent, st.argNum] = intFromArg(a, st.argNum);
    if (!f.widPresent) p.write('%!(BADWIDTH)');
    if (f.wid < 0) {
      f.wid = -f.wid;
      f.minus = true;
      f.zero = false;
    }
    afterIndex = false;
  } else {
    [f.wid, f.widPresent, i] = parsenum(format, i, end);
    if (afterIndex && f.widPresent) fs.goodArgNum = false;
  }
  if (i + 1 < end && format[i] === '.') {
    i++;
    if (afterIndex) fs.goodArgNum = false;
    [st.argNum, i, afterIndex] = fs.argNumber(st.argNum, format, i, a.length);
    if (i < end && format[i] === '*') {
      i++;
      [f.prec, f.precPresent, st.argNum] = intFromArg(a, st.argNum);
      if (f.prec < 0) {
        f.prec = 0;
        f.precPresent = false;
      }
      if (!f.precPresent) p.write('%!(BADPREC)');
      afterIndex = false;
    } else {
      [f.prec, f.precPresent, i] = parsenum(format, i, end);
      if (!f.precPresent) {
        f.prec = 0;
        f.precPresent = true;
      }
    }
  }
  return [i, afterIndex];
}

function printVerb(p: Printer, fs: FormatState, st: { argNum: number }, verb: string, a: readonly unknown[]): void {
  const f = p.fmt;
  if (verb === '%') p.write('%');
  else if (!fs.goodArgNum) p.write(`%!${verb}(BADINDEX)`);
  else if (st.argNum >= a.length) p.write(`%!${verb}(MISSING)`);
  else {
    if (verb === 'v') {
      f.sharpV = f.sharp;
      f.sharp = false;
      f.plusV = f.plus;
      f.plus = false;
    }
    p.printArg(a[st.argNum], verb);
    st.argNum++;
  }
}

function writeExtra(p: Printer, rest: readonly unknown[]): void {
  p.fmt.clearflags();
  p.write('%!(EXTRA ');
  rest.forEach((arg, i) => {
    if (i > 0) p.write(', ');
    if (arg === undefined || arg === null) p.write('<nil>');
    else {
      p.write(`${typeName(arg)}=`);
      p.printArg(arg, 'v');
    }
  });
  p.write(')');
}
