/** One oracle case: rendered by Go's text/template and by this package with the webhook funcs. */
export interface Case {
  name: string;
  template: string;
  data?: unknown;
  /** Template name (default "t"), which appears in error messages. */
  tname?: string;
  /** Go's template Option, e.g. "missingkey=error". */
  option?: string;
}

export type Row = [template: string, data?: unknown];

/** Names rows as prefix/1, prefix/2, ... */
export function group(prefix: string, rows: readonly Row[]): Case[] {
  return rows.map(([template, data], i) =>
    data === undefined ? { name: `${prefix}/${i + 1}`, template } : { name: `${prefix}/${i + 1}`, template, data },
  );
}
