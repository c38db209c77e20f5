import { parse, type Template, webhookFuncs } from '@svc/gotemplate';
import type { TemplateData } from './notifications.model.js';

// Parsing is far costlier than executing; live sends reuse the parsed form of each distinct template text.
const cache = new Map<string, Template>();
const CACHE_MAX = 500;

/** Parses with the webhook functions (title, upper, lower, urlquery, urlpath, jsonString...); Go's errors. */
export function compileTemplate(name: string, text: string): Template {
  const key = `${name}\u0000${text}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const t = parse(name, text, { funcs: webhookFuncs });
  if (cache.size >= CACHE_MAX) cache.clear();
  cache.set(key, t);
  return t;
}

/**
 * Renders a payload or URL template. Live sends, tests and `svc template render` all come through here, so a
 * template behaves the same everywhere. Throws the gotemplate TemplateError / ExecError (Go's messages).
 */
export function renderTemplate(name: string, text: string, data: TemplateData): string {
  return compileTemplate(name, text).execute(data);
}
