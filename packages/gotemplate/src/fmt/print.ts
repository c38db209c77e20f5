// Go's fmt/print.go over the template value model: Sprintf, Sprint and Sprintln.
import { GoInt, intValue, isGoMap, kindOf, sortedKeys, typeName } from '../values.js';
import { Fmt } from './format.js';

class Printer {
  readonly fmt = new Fmt();
  private arg: unknown = undefined;

  get out(): string {
    return this.fmt.buf;
  }

  write(s: string): void {
    this.fmt.buf += s;
  }

  badVerb(verb: string): void {
    this.write(`%!${verb}(`);
    if (this.arg !== undefined && this.arg !== null) {
      this.write(`${typeName(this.arg)}=`);
      this.printArg(this.arg, 'v');
    } else this.write('<nil>');
    this.write(')');
  }

  printArg(arg: unknown, verb: string): void {
    this.arg = arg;
    if (arg === undefined || arg === null) {
      if (verb === 'T' || verb === 'v') this.fmt.pad('<nil>');
      else this.badVerb(verb);
      return;
    }
    if (verb === 'T') {
      this.fmt.fmtS(typeName(arg));
      return;
    }
    if (verb === 'p' || (verb === 'w' && typeof arg === 'object' && !(arg instanceof GoInt))) {
      this.badVerb(verb);
      return;
    }
    this.printValue(arg, verb, 0);
  }

  printValue(v: unknown, verb: string, depth: number): void {
    if (depth > 0) this.arg = v;
    switch (kindOf(v)) {
      case 'bool':
        if (verb === 't' || verb === 'v') this.fmt.fmtBoolean(v as boolean);
        else this.badVerb(verb);
        return;
      case 'int':
        this.fmtInteger(intValue(v), true, verb);
        return;
      case 'uint':
        this.fmtInteger(intValue(v), false, verb);
        return;
      case 'float':
        this.fmtFloat(v as number, verb);
        return;
      case 'string':
        this.fmtString(v as string, verb);
        return;
      case 'map':
        this.printMap(v as Record<string, unknown>, verb, depth);
        return;
      case 'slice':
        this.printSlice(v as unknown[], verb, depth);
        return;
      case 'nil':
      case 'invalid':
        this.write(this.fmt.sharpV ? 'interface {}(nil)' : '<nil>');
        return;
      default:
        this.badVerb(verb);
        return;
    }
  }

  private printMap(m: Record<string, unknown>, verb: string, depth: number): void {
    const sharpV = this.fmt.sharpV;
    this.write(sharpV ? 'map[string]interface {}{' : 'map[');
    sortedKeys(m).forEach((key, i) => {
      if (i > 0) this.write(sharpV ? ', ' : ' ');
      this.printValue(key, verb, depth + 1);
      this.write(':');
      this.printValue(m[key] ?? null, verb, depth + 1);
    });
    this.write(sharpV ? '}' : ']');
  }

  private printSlice(a: unknown[], verb: string, depth: number): void {
    const sharpV = this.fmt.sharpV;
    this.write(sharpV ? '[]interface {}{' : '[');
    a.forEach((el, i) => {
      if (i > 0) this.write(sharpV ? ', ' : ' ');
      this.printValue(el ?? null, verb, depth + 1);
    });
    this.write(sharpV ? '}' : ']');
  }

  private fmtInteger(v: bigint, signed: boolean, verb: string): void {
    const f = this.fmt;
    switch (verb) {
      case 'v':
        if (f.sharpV && !signed) {
          const sharp = f.sharp;
          f.sharp = true;
          f.fmtInteger(v, 16, 'v', false);
          f.sharp = sharp;
        } else f.fmtInteger(v, 10, verb, false);
        return;
      case 'd':
        f.fmtInteger(v, 10, verb, false);
        return;
      case 'b':
        f.fmtInteger(v, 2, verb, false);
        return;
      case 'o':
      case 'O':
        f.fmtInteger(v, 8, verb, false);
        return;
      case 'x':
        f.fmtInteger(v, 16, verb, false);
        return;
      case 'X':
        f.fmtInteger(v, 16, verb, true);
        return;
      // Go passes these the value as uint64, so negative numbers wrap around.
      case 'c':
        f.fmtC(BigInt.asUintN(64, v));
        return;
      case 'q':
        f.fmtQc(BigInt.asUintN(64, v));
        return;
      case 'U':
        f.fmtUnicode(BigInt.asUintN(64, v));
        return;
      default:
        this.badVerb(verb);
        return;
    }
  }

  private fmtFloat(v: number, verb: string): void {
    switch (verb) {
      case 'v':
        this.fmt.fmtFloat(v, 'g', -1);
        return;
      case 'b':
      case 'g':
      case 'G':
      case 'x':
      case 'X':
        this.fmt.fmtFloat(v, verb, -1);
        return;
      case 'f':
      case 'e':
      case 'E':
        this.fmt.fmtFloat(v, verb, 6);
        return;
      case 'F':
        this.fmt.fmtFloat(v, 'f', 6);
        return;
      default:
        this.badVerb(verb);
        return;
    }
  }

  private fmtString(v: string, verb: string): void {
    switch (verb) {
      case 'v':
        if (this.fmt.sharpV) this.fmt.fmtQ(v);
        else this.fmt.fmtS(v);
        return;
      case 's':
        this.fmt.fmtS(v);
        return;
      case 'x':
        this.fmt.fmtSx(v, false);
        return;
      case 'X':
        this.fmt.fmtSx(v, true);
        return;
      case 'q':
        this.fmt.fmtQ(v);
        return;
      default:
        this.badVerb(verb);
        return;
    }
  }
}

/** fmt.Sprint: spaces between operands when neither side is a string. */
export function sprint(args: readonly unknown[]): string {
  const p = new Printer();
  let prevString = false;
  args.forEach((arg, i) => {
    const isString = typeof arg === 'string';
    if (i > 0 && !isString && !prevString) p.write(' ');
    p.fmt.clearflags();
    p.printArg(arg, 'v');
    prevString = isString;
  });
  return p.out;
}

/** fmt.Sprintln: always spaces, and a trailing newline. */
export function sprintln(args: readonly unknown[]): string {
  const p = new Printer();
  args.forEach((arg, i) => {
    if (i > 0) p.write(' ');
    p.fmt.clearflags();
    p.printArg(arg, 'v');
  });
  p.write('\n');
  return p.out;
}

/** The value text of fmt.Sprint(v) for one operand, with a fast path for common kinds. */
export function sprintOne(v: unknown): string {
  if (typeof v === 'string') return v;
  return sprint([v]);
}

export { Printer };
export const isMapValue = isGoMap;
