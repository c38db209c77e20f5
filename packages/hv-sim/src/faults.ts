export const FAULT_KINDS = [
  'latency',
  'error',
  'rate-limit',
  'timeout',
  'malformed',
  'truncate',
  'auth-expiry',
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface FaultSpec {
  kind: FaultKind;
  /** Glob on the API path without `/api2/json` (`*` matches anything, `/nodes/*\/qemu`); absent = every path. */
  path?: string;
  method?: string;
  /** Only requests arriving on this cluster member's listener (node name). */
  member?: string;
  /** Number of requests affected; absent = until cleared. 1 = one-shot. */
  count?: number;
  /** latency: added delay in ms. */
  ms?: number;
  /** error: HTTP status (default 500). */
  status?: number;
  /** rate-limit: Retry-After seconds (default 1). */
  retryAfter?: number;
  message?: string;
}

export interface Fault extends FaultSpec {
  id: number;
  hits: number;
}

/** The decision for one request: a total delay plus at most one fault that decides the answer. */
export interface FaultPlan {
  delayMs: number;
  expireAuth: boolean;
  terminal?: Fault;
}

const TERMINAL = new Set<FaultKind>(['error', 'rate-limit', 'timeout', 'malformed', 'truncate']);

export class Faults {
  private list: Fault[] = [];
  private nextId = 1;
  private readonly globs = new Map<string, RegExp>();

  add(spec: FaultSpec): Fault {
    if (!FAULT_KINDS.includes(spec.kind)) throw new Error(`unknown fault kind '${String(spec.kind)}'`);
    if (spec.count !== undefined && !(Number.isInteger(spec.count) && spec.count > 0))
      throw new Error('count must be a positive integer');
    const f: Fault = { ...spec, id: this.nextId++, hits: 0 };
    this.list.push(f);
    return f;
  }

  remove(id: number): boolean {
    const before = this.list.length;
    this.list = this.list.filter((f) => f.id !== id);
    return this.list.length < before;
  }

  clear(): void {
    this.list = [];
  }

  all(): Fault[] {
    return this.list.map((f) => ({ ...f }));
  }

  /** Picks the faults that apply to this request and uses up their counts. */
  plan(member: string, method: string, path: string): FaultPlan {
    const out: FaultPlan = { delayMs: 0, expireAuth: false };
    if (this.list.length === 0) return out;
    for (const f of this.list) {
      if (f.member && f.member !== member) continue;
      if (f.method && f.method.toUpperCase() !== method) continue;
      if (f.path && !this.glob(f.path).test(path)) continue;
      if (TERMINAL.has(f.kind)) {
        if (out.terminal) continue;
        out.terminal = f;
      } else if (f.kind === 'latency') out.delayMs += f.ms ?? 0;
      else out.expireAuth = true;
      f.hits++;
    }
    this.list = this.list.filter((f) => f.count === undefined || f.hits < f.count);
    return out;
  }

  private glob(pattern: string): RegExp {
    let re = this.globs.get(pattern);
    if (!re) {
      const p = pattern.startsWith('/api2/json') ? pattern.slice(10) : pattern;
      re = new RegExp(`^${p.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replaceAll('*', '.*')}$`);
      this.globs.set(pattern, re);
    }
    return re;
  }
}
