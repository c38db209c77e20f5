/** Path templates like `/nodes/{node}/qemu/{vmid}/status/current`, matched segment by segment. */
export interface Template {
  template: string;
  segments: string[];
  /** Indexes of `{param}` segments and their names. */
  params: Array<[number, string]>;
}

export function compileTemplate(template: string): Template {
  const segments = template.split('/').filter(Boolean);
  const params: Array<[number, string]> = [];
  segments.forEach((s, i) => {
    if (s.startsWith('{') && s.endsWith('}')) params.push([i, s.slice(1, -1)]);
  });
  return { template, segments, params };
}

export function splitPath(path: string): string[] {
  return path.split('/').filter(Boolean);
}

/** Returns the path parameters when `parts` fits the template, else undefined. */
export function matchTemplate(t: Template, parts: string[]): Record<string, string> | undefined {
  if (parts.length !== t.segments.length) return undefined;
  for (let i = 0; i < parts.length; i++) {
    const seg = t.segments[i]!;
    if (seg.charCodeAt(0) !== 123 /* { */ && seg !== parts[i]) return undefined;
  }
  const out: Record<string, string> = {};
  for (const [i, name] of t.params) out[name] = decodeURIComponent(parts[i]!);
  return out;
}

/** A small table keyed by method and segment count, so lookups stay cheap at any request rate. */
export class RouteTable<V> {
  private readonly byKey = new Map<string, Array<{ t: Template; value: V }>>();

  add(method: string, template: string, value: V): void {
    const t = compileTemplate(template);
    const key = `${method} ${t.segments.length}`;
    const list = this.byKey.get(key) ?? [];
    // Literal segments win over parameters, like the real routers (`/nodes/x/qemu` vs `{vmid}`).
    list.push({ t, value });
    list.sort((a, b) => b.t.segments.length - b.t.params.length - (a.t.segments.length - a.t.params.length));
    this.byKey.set(key, list);
  }

  find(method: string, parts: string[]): { value: V; params: Record<string, string>; template: string } | undefined {
    const list = this.byKey.get(`${method} ${parts.length}`);
    if (!list) return undefined;
    for (const { t, value } of list) {
      const params = matchTemplate(t, parts);
      if (params) return { value, params, template: t.template };
    }
    return undefined;
  }

  /** True when some method serves this path (to tell 501 from 404/405 answers). */
  hasPath(parts: string[], methods: string[]): boolean {
    return methods.some((m) => this.find(m, parts) !== undefined);
  }
}
