// The functions svc offers to webhook payload and URL templates, as oracle/render.go defines them.
import { pathEscape, queryEscape } from './escape.js';
import { sprint } from './fmt/print.js';
import { type GoFunc, goFunc } from './funcs.js';

function isAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 0x7f) return false;
  return true;
}

// Go maps rune by rune with simple case mappings; JS may expand one character into several
// (ß -> SS), so such characters are kept as Go keeps them. İ is Go's one simple-lowercase outlier.
function mapRunes(s: string, upper: boolean): string {
  if (isAscii(s)) return upper ? s.toUpperCase() : s.toLowerCase();
  let out = '';
  for (const ch of s) {
    if (!upper && ch === '\u0130') {
      out += 'i';
      continue;
    }
    const m = upper ? ch.toUpperCase() : ch.toLowerCase();
    out += m.length === ch.length || [...m].length === 1 ? m : ch;
  }
  return out;
}

export const toUpper = (s: string): string => mapRunes(s, true);
export const toLower = (s: string): string => mapRunes(s, false);

/** First character upper case, the rest lower case. */
export function title(s: string): string {
  if (s === '') return s;
  const first = String.fromCodePoint(s.codePointAt(0)!);
  return toUpper(first) + toLower(s.slice(first.length));
}

function needsJsonEscape(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 0x22 || c === 0x5c || c === 0x3c || c === 0x3e || c === 0x26) return true;
    if (c === 0x2028 || c === 0x2029 || (c >= 0xd800 && c <= 0xdfff)) return true;
  }
  return false;
}

/** The inside of the JSON string Go's encoding/json writes for s (HTML-safe, Go 1.19 rules). */
export function jsonEscape(s: string): string {
  if (!needsJsonEscape(s)) return s;
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        out += s[i]! + s[i + 1]!;
        i++;
        continue;
      }
    }
    out += jsonChar(c, s[i]!);
  }
  return out;
}

function jsonChar(c: number, ch: string): string {
  switch (ch) {
    case '"':
      return '\\"';
    case '\\':
      return '\\\\';
    case '\n':
      return '\\n';
    case '\r':
      return '\\r';
    case '\t':
      return '\\t';
  }
  if (c < 0x20 || ch === '<' || ch === '>' || ch === '&') return `\\u00${c.toString(16).padStart(2, '0')}`;
  if (c === 0x2028 || c === 0x2029) return `\\u${c.toString(16)}`;
  if (c >= 0xd800 && c <= 0xdfff) return '\\ufffd';
  return ch;
}

const textOf = (v: unknown): string => (typeof v === 'string' ? v : sprint([v]));

function escaper(esc: (s: string) => string): GoFunc {
  const fn = (...args: unknown[]): string =>
    args.length === 1 && typeof args[0] === 'string' ? esc(args[0]) : esc(sprint(args));
  return goFunc([], fn as never, 'any');
}

/** The webhook function set: pass as `funcs` to parse(). */
export const webhookFuncs: Record<string, GoFunc> = {
  title: goFunc(['string'], title as never),
  upper: goFunc(['string'], toUpper as never),
  lower: goFunc(['string'], toLower as never),
  urlquery: escaper(queryEscape),
  urlencode: escaper(queryEscape),
  urlpath: escaper(pathEscape),
  pathescape: escaper(pathEscape),
  jsonString: goFunc(['any'], ((v: unknown) => jsonEscape(textOf(v))) as never),
};
