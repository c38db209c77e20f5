import type { PSchema } from './schemas.js';

/** How to read values: request parameters arrive as strings; responses are JSON values. */
export interface CheckMode {
  params: boolean;
  /** Perl APIs (hv, mail) send booleans as 0/1; PBS sends JSON booleans. */
  numericBooleans: boolean;
}

export type Errors = Record<string, string>;

const CNTRL = '\\x00-\\x1f\\x7f';
const regexCache = new Map<string, RegExp | null>();

/** Turns a Perl (hv/mail) or `/.../`-wrapped Rust (bak) pattern into an anchored JS RegExp. */
export function compilePattern(p: string): RegExp | null {
  const hit = regexCache.get(p);
  if (hit !== undefined) return hit;
  let src = p;
  const wrapped = src.length > 1 && src.startsWith('/') && src.endsWith('/');
  if (wrapped) src = src.slice(1, -1);
  src = src
    .replaceAll('[[:^cntrl:]]', `[^${CNTRL}]`)
    .replaceAll('[:cntrl:]', CNTRL)
    .replaceAll('(?P<', '(?<')
    .replaceAll('(?^:', '(?:');
  // Perl's verifier matches /^$pattern$/; bak patterns carry their own anchors.
  if (!wrapped) src = `^(?:${src})$`;
  let re: RegExp | null;
  try {
    re = new RegExp(src);
  } catch {
    re = null;
  }
  regexCache.set(p, re);
  return re;
}

const CONTENT = ['images', 'rootdir', 'vztmpl', 'iso', 'backup', 'snippets', 'import'];
const FORMATS: Record<string, (v: string) => boolean> = {
  'pve-node': (v) => /^[a-zA-Z0-9]([a-zA-Z0-9-]*[a-zA-Z0-9])?(\.[a-zA-Z0-9-]+)*$/.test(v),
  'pve-storage-id': (v) => /^[a-z][a-z0-9\-_.]*[a-z0-9]$/i.test(v),
  'pve-configid': (v) => /^[a-z][a-z0-9_]+$/i.test(v),
  'pve-storage-content': (v) => CONTENT.includes(v),
  'pve-storage-content-list': (v) => v === '' || v.split(',').every((c) => CONTENT.includes(c) || c === 'none'),
  'pve-userid': (v) => /^[^\s:/]+@[A-Za-z][A-Za-z0-9.\-_]+$/.test(v),
  'pve-realm': (v) => /^[A-Za-z][A-Za-z0-9.\-_]+$/.test(v),
  'pmg-realm': (v) => /^[A-Za-z][A-Za-z0-9.\-_]+$/.test(v),
  'pve-task-status-type-list': (v) => v.split(/[,; ]/).every((x) => ['ok', 'error', 'warning', 'unknown'].includes(x)),
};

const TRUE = /^(1|on|yes|true)$/i;
const FALSE = /^(0|off|no|false)$/i;

function isOptional(s: PSchema): boolean {
  return s.optional === 1 || s.optional === true;
}

function describeType(t: string, v: unknown): string {
  return `type check ('${t}') failed - got ${typeof v === 'object' ? JSON.stringify(v) : `'${String(v)}'`}`;
}

/** Checks one value against a schema node, adding `path: message` pairs to `errors` (Proxmox's wording). */
export function checkValue(s: PSchema, v: unknown, path: string, errors: Errors, mode: CheckMode): void {
  const t = s.type;
  if (t === 'array') checkArray(s, v, path, errors, mode);
  else if (t === 'object') {
    if (!mode.params) checkObject(s, v, path, errors, mode);
  } else {
    const msg = scalarError(s, t, v, mode);
    if (msg) errors[path] = msg;
  }
}

function scalarError(s: PSchema, t: string | undefined, v: unknown, mode: CheckMode): string | undefined {
  if (t === 'null') return v === null ? undefined : describeType('null', v);
  if (t === 'integer' || t === 'number') return numberError(s, t, v, mode);
  if (t === 'boolean') return booleanError(v, mode);
  if (t === 'string') return stringError(s, v);
  return undefined;
}

function numberError(s: PSchema, t: string, v: unknown, mode: CheckMode): string | undefined {
  let n: number;
  if (mode.params && typeof v === 'string') {
    const re = t === 'integer' ? /^-?\d+$/ : /^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;
    if (!re.test(v.trim())) return describeType(t, v);
    n = Number(v);
  } else if (typeof v === 'number' && (t === 'number' || Number.isInteger(v))) {
    n = v;
  } else {
    return describeType(t, v);
  }
  if (s.minimum !== undefined && n < Number(s.minimum)) return `value must have a minimum value of ${s.minimum}`;
  if (s.maximum !== undefined && n > Number(s.maximum)) return `value must have a maximum value of ${s.maximum}`;
  if (s.enum && !s.enum.map(Number).includes(n)) return enumMessage(s, n);
  return undefined;
}

function booleanError(v: unknown, mode: CheckMode): string | undefined {
  if (typeof v === 'boolean') return undefined;
  if (mode.params && typeof v === 'string' && (TRUE.test(v) || FALSE.test(v))) return undefined;
  if (!mode.params && mode.numericBooleans && (v === 0 || v === 1)) return undefined;
  return describeType('boolean', v);
}

function enumMessage(s: PSchema, v: unknown): string {
  return `value '${String(v)}' does not have a value in the enumeration '${(s.enum ?? []).join(', ')}'`;
}

function stringError(s: PSchema, v: unknown): string | undefined {
  if (typeof v !== 'string') return describeType('string', v);
  if (s.enum && !s.enum.includes(v)) return enumMessage(s, v);
  if (s.maxLength !== undefined && v.length > s.maxLength) return `value may only be ${s.maxLength} characters long`;
  if (s.minLength !== undefined && v.length < s.minLength)
    return `value must be at least ${s.minLength} characters long`;
  if (s.pattern) {
    const re = compilePattern(s.pattern);
    if (re && !re.test(v)) return 'value does not match the regex pattern';
  }
  if (typeof s.format === 'string') {
    const f = FORMATS[s.format];
    if (f && !f(v)) return `invalid format - value does not look like a valid ${s.format}`;
  }
  return undefined;
}

function checkArray(s: PSchema, v: unknown, path: string, errors: Errors, mode: CheckMode): void {
  // Repeated query parameters arrive as an array; a single occurrence as a plain string.
  const list = mode.params && typeof v === 'string' ? [v] : v;
  if (!Array.isArray(list)) {
    errors[path] = describeType('array', v);
    return;
  }
  if (!s.items) return;
  for (let i = 0; i < list.length; i++) checkValue(s.items, list[i], `${path}[${i}]`, errors, mode);
}

/** Objects: required unless `optional: 1`; extra keys refused only where additionalProperties is 0/false. */
export function checkObject(s: PSchema, v: unknown, path: string, errors: Errors, mode: CheckMode): void {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) {
    errors[path] = describeType('object', v);
    return;
  }
  const obj = v as Record<string, unknown>;
  const props = s.properties ?? {};
  const join = (k: string) => (path ? `${path}.${k}` : k);
  for (const [k, ps] of Object.entries(props)) {
    const val = obj[k];
    if (val === undefined || (mode.params && val === '')) {
      if (!isOptional(ps) && val === undefined) errors[join(k)] = 'property is missing and it is not optional';
      continue;
    }
    checkValue(ps, val, join(k), errors, mode);
    if (ps.requires && obj[ps.requires] === undefined)
      errors[join(ps.requires)] = `missing property - '${join(k)}' requires this property`;
  }
  const ap = s.additionalProperties;
  for (const k of Object.keys(obj)) {
    if (k in props) continue;
    if (ap === 0 || ap === false)
      errors[join(k)] = 'property is not defined in schema and the schema does not allow additional properties';
    else if (ap && typeof ap === 'object') checkValue(ap, obj[k], join(k), errors, mode);
  }
}
