import type { Case } from './types.js';

const values: Record<string, string> = {
  int: '42',
  neg: '-7',
  zero: '0',
  float: '.F',
  negf: '.NF',
  big: '.Big',
  small: '.Small',
  whole: '.W',
  str: '.S',
  uni: '.U',
  bool: 'true',
  nil: 'nil',
  list: '.L',
  map: '.M',
  missing: '.Missing',
  char: "'é'",
  byte: '(index .S 0)',
  len: '(len .L)',
};

const data = {
  F: 3.14159,
  NF: -2.5,
  Big: 1234567.891,
  Small: 0.000123,
  W: 2,
  S: 'hello',
  U: 'héllo "wörld"\n✓\t\u0001',
  L: [1, 'a', 2.5, null],
  M: { k: 'v', n: 1 },
};

const verbs = ['%v', '%+v', '%#v', '%T', '%d', '%s', '%q', '%x', '%X', '%f', '%.2f', '%e', '%g', '%t', '%c', '%U', '%b', '%o', '%8v', '%-8v|', '%08.3f', '%5.1f', '%-6s|', '%.3s', '%x', '% x', '%#x', '%+d', '% d', '%05d', '%E', '%G', '%10.4e', '%#g', '%#o', '%O', '%#U', '%+q', '%#q', '%w', '%z', '%F', '%.0f', '%.1e', '%6.2f%%'];

const cases: Case[] = [];
for (const [vname, expr] of Object.entries(values)) {
  cases.push({ name: `printf/${vname}`, template: verbs.map((v) => `{{printf "${v}" ${expr}}}`).join('\n'), data });
}

const extras: [string, unknown?][] = [
  ['{{printf "%d %d" 1}}'],
  ['{{printf "%d" 1 2 "x" nil}}'],
  ['{{printf "%[2]d %[1]d" 1 2}}'],
  ['{{printf "%[3]d" 1 2}}'],
  ['{{printf "%[0]d" 1}}'],
  ['{{printf "%[x]d" 1}}'],
  ['{{printf "%*d|%-*d|" 5 1 4 2}}'],
  ['{{printf "%.*f" 2 3.14159}}'],
  ['{{printf "%*d" 1.5 3}}'],
  ['{{printf "%.*d" -1 3}}'],
  ['{{printf "%"}}'],
  ['{{printf "abc%"}}'],
  ['{{printf "%!"}}'],
  ['{{printf "%-05d|" 3}}'],
  ['{{printf "%05s|%-05s|" "ab" "ab"}}'],
  ['{{printf "%.0d|%5.0d|" 0 0}}'],
  ['{{printf "%6.3d" 7}}'],
  ['{{printf "%x %X %#X" 255 255 255}}'],
  ['{{printf "%x" -255}}'],
  ['{{printf "%v %v %v %v" 1e20 1e21 123456789.0 0.000001}}'],
  ['{{printf "%.1f %.1f %.1f %.1f %.0f %.0f %.0f" 0.25 0.35 2.25 -0.05 0.5 1.5 2.5}}'],
  ['{{printf "%.2f %.3f %.10f" 1.005 2.0005 0.1}}'],
  ['{{printf "%g %g %g %g %G" 100000.0 1000000.0 0.0001 0.00001 1e-10}}'],
  ['{{printf "%.3g %.10g %.1g %.0g" 3.14159 3.14159 0.05 123.0}}'],
  ['{{printf "%e %.0e %.3E" 0.0 5.0 123456.789}}'],
  ['{{printf "%8.3f|%-8.3f|%+.2f|% .2f" 3.14159 3.14159 3.0 3.0}}'],
  ['{{printf "%+v %#v" .M .L}}', { M: { a: 1 }, L: ['x', 2] }],
  ['{{printf "%v" .}}', { a: { b: [1, { c: null }] } }],
  ['{{printf "%d" .}}', { a: 1, b: 'x' }],
  ['{{printf "%s" .}}', [1, 'a', true]],
  ['{{printf "%q" .}}', ['a', 'b"']],
  ['{{printf "%x" .}}', ['hi', 255]],
  ['{{printf "%.1f" .}}', [1, 2.25]],
  ['{{printf "%5v|" .}}', [1, 'a']],
  ['{{printf "%s %d" .Missing .Missing}}', {}],
  ['{{printf "%v|%s|%d" .Null .Null .Null}}', { Null: null }],
  ['{{printf .F}}', { F: '%d items' }],
  ['{{printf .N}}', { N: 3 }],
  ['{{printf 3}}'],
  ['{{printf nil}}'],
  ['{{printf}}'],
  ['{{printf "%s"}}'],
  ['{{printf "%c%c%c" 72 105 0x1F600}}'],
  ['{{printf "%q %q %+q" 65 0x7f 0xe9}}'],
  ['{{printf "%U %#U" 0x1F600 65}}'],
  ['{{printf "%c" -1}}'],
  ['{{printf "%t %t" true 1}}'],
  ['{{printf "%08.2f|%-8.2f|%+08.2f" -3.5 -3.5 3.5}}'],
  ['{{printf "%x %X % X %#x" "héllo" "abc" "abc" "abc"}}'],
  ['{{printf "%.2x|%10x|%-10x|" "hello" "ab" "ab"}}'],
  ['{{printf "%q" "\\x00\\a\\b\\f\\v\\u2028\\U0001F600é"}}'],
  ['{{printf "%#q %#q" "back`tick" "plain"}}'],
  ['{{printf "%.3q" "abcdef"}}'],
  ['{{printf "%5.2s|%-5.1s|" "héllo" "wörld"}}'],
  ['{{printf "%v %d" 1e100 100}}'],
  ['{{printf "%v %v %v" 5e-324 1.7976931348623157e308 -0.0}}'],
  ['{{printf "%.3v %.3v" 3.14159 "abcdef"}}'],
  ['{{printf "%b %b" 5 1.0}}'],
  ['{{printf "%o %#o %O" 8 8 8}}'],
  ['{{printf "%6.2v|" 3.14159}}'],
  ['{{printf "%#v %#v %#v %#v" 1.0 1e6 "s" true}}'],
  ['{{printf "%#v %#v" .Null .Missing}}', { Null: null }],
  ['{{printf "%#v" .}}', { a: null, b: [null], c: 1.5 }],
  ['{{printf "%v" (index .S 1)}} {{printf "%#v" (index .S 1)}} {{printf "%c" (index .S 1)}}', { S: 'hé' }],
  ['{{printf "%d %s" (len .S) (len .S)}}', { S: 'hé' }],
  ['{{printf "%[2]*[1]d|" 3 5}}'],
  ['{{printf "%[1]d %d %d" 1 2}}'],
  ['{{printf "%d %[1]d %[5]d" 1 2}}'],
  ['{{printf "%[2].[1]f" 2 3.14159}}'],
  ['{{printf "%-+ #0v" 3}}'],
  ['{{printf "%10.3s|" "abcdef"}}'],
  ['{{printf "%v%%" 95.5}}'],
  ['{{printf "%5%|"}}'],
  ['{{printf "%.1f%%" .Value}}', { Value: 87.25 }],
  ['{{printf "%p|%p|%p" 1 "s" true}}'],
  ['{{printf "%x|%.0x|%.3X|%#x|%10.2x|%-12x|%+x" 1.0 1.5 -0.1 2.0 3.0 0.5 1e-310}}'],
  ['{{printf "%s is %.1f%% (threshold %.0f%%)" .Name .V .T}}', { Name: 'cpu', V: 91.26, T: 90 }],
];
extras.forEach(([template, d], i) => {
  cases.push(d === undefined ? { name: `printf-x/${i + 1}`, template } : { name: `printf-x/${i + 1}`, template, data: d });
});

const floats = [0, 1, -1, 0.5, 1.5, 2.5, 0.125, 0.375, 1 / 3, 2 / 3, 1e-5, 123.456, 99.95, 99.995, 1e15, 1e16, 1e17, 123456789012, 0.1 + 0.2, 1e-320, 4.35, 8.675, 1.45, 2.675, 5e-5, 9.995, 1234.5678];
const fverbs = ['%v', '%.0f', '%.1f', '%.2f', '%.3f', '%e', '%.2e', '%g', '%.3g', '%.15g', '%.17g', '%f', '%8.3f', '%.20f', '%.25e'];
for (const v of fverbs) {
  cases.push({ name: `printf-float/${v}`, template: `{{range .F}}{{printf "${v}" .}} {{end}}`, data: { F: floats } });
}

export const printf: Case[] = cases;
