// Character classes and UTF-8 helpers matching Go's unicode and unicode/utf8 packages, as far as
// the JavaScript Unicode tables allow.

const printRe = /[\p{L}\p{M}\p{N}\p{P}\p{S}]/u;
const letterRe = /\p{L}/u;
const digitRe = /\p{Nd}/u;

/** unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space. */
export function isPrint(cp: number): boolean {
  if (cp < 0x80) return cp >= 0x20 && cp < 0x7f;
  return printRe.test(String.fromCodePoint(cp));
}

export function isLetter(cp: number): boolean {
  if (cp < 0x80) return (cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a);
  return letterRe.test(String.fromCodePoint(cp));
}

export function isDigit(cp: number): boolean {
  if (cp < 0x80) return cp >= 0x30 && cp <= 0x39;
  return digitRe.test(String.fromCodePoint(cp));
}

export function isAlphaNumeric(cp: number): boolean {
  return cp === 0x5f || isLetter(cp) || isDigit(cp);
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export function utf8Bytes(s: string): Uint8Array {
  return encoder.encode(s);
}

export function fromUtf8(b: Uint8Array): string {
  return decoder.decode(b);
}

/** len(s) in Go: the UTF-8 byte length. */
export function utf8Len(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

/** utf8.RuneCountInString. */
export function runeCount(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) i++;
    n++;
  }
  return n;
}

/** Compares strings by code point, which is Go's byte-wise order of their UTF-8 forms. */
export function compareStrings(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) {
      const sx = x >= 0xd800 && x <= 0xdfff;
      const sy = y >= 0xd800 && y <= 0xdfff;
      if (sx !== sy) return sx ? 1 : -1;
      return x < y ? -1 : 1;
    }
  }
  return a.length - b.length;
}
