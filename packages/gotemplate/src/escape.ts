// The escapers behind html, js and urlquery, and url.PathEscape for the webhook functions.
import { isPrint, utf8Bytes } from './unicode.js';

const htmlRe = /['"&<>\0]/g;
const htmlMap: Record<string, string> = {
  "'": '&#39;',
  '"': '&#34;',
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '\0': '\uFFFD',
};

/** template.HTMLEscapeString. */
export function htmlEscape(s: string): string {
  return s.replace(htmlRe, (c) => htmlMap[c]!);
}

const jsSpecial: Record<string, string> = {
  '\\': '\\\\',
  "'": "\\'",
  '"': '\\"',
  '<': '\\u003C',
  '>': '\\u003E',
  '&': '\\u0026',
  '=': '\\u003D',
};

/** template.JSEscapeString. */
export function jsEscape(s: string): string {
  let out = '';
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    const special = jsSpecial[ch];
    if (special !== undefined) out += special;
    else if (cp < 0x20) out += `\\u00${cp.toString(16).toUpperCase().padStart(2, '0')}`;
    else if (cp < 0x80 || isPrint(cp)) out += ch;
    else out += `\\u${(cp >= 0xd800 && cp <= 0xdfff ? 0xfffd : cp).toString(16).toUpperCase().padStart(4, '0')}`;
  }
  return out;
}

const hex = '0123456789ABCDEF';

function escapeBytes(s: string, keep: (c: number) => boolean, spacePlus: boolean): string {
  let out = '';
  for (const b of utf8Bytes(s)) {
    if (keep(b)) out += String.fromCharCode(b);
    else if (b === 0x20 && spacePlus) out += '+';
    else out += `%${hex[b >> 4]}${hex[b & 15]}`;
  }
  return out;
}

const unreserved = (c: number): boolean =>
  (c >= 0x61 && c <= 0x7a) ||
  (c >= 0x41 && c <= 0x5a) ||
  (c >= 0x30 && c <= 0x39) ||
  c === 0x2d ||
  c === 0x5f ||
  c === 0x2e ||
  c === 0x7e;

/** url.QueryEscape. */
export function queryEscape(s: string): string {
  return /^[A-Za-z0-9\-_.~]*$/.test(s) ? s : escapeBytes(s, unreserved, true);
}

// In a path segment Go leaves $ & + : = @ alone and escapes / ; , ? like everything else.
const pathKeep = (c: number): boolean =>
  unreserved(c) || c === 0x24 || c === 0x26 || c === 0x2b || c === 0x3a || c === 0x3d || c === 0x40;

/** url.PathEscape. */
export function pathEscape(s: string): string {
  return escapeBytes(s, pathKeep, false);
}
