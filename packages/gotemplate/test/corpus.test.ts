// Every case of the Go oracle's corpus must render byte for byte as Go rendered it.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { CorpusEntry } from '../oracle/run-oracle.js';
import { ExecError, parse, TemplateError, webhookFuncs } from '../src/index.js';

const corpus = JSON.parse(readFileSync(new URL('./corpus.json', import.meta.url), 'utf8')) as CorpusEntry[];

interface Outcome {
  output: string;
  error?: string;
  phase?: 'parse' | 'exec';
}

export function render(c: CorpusEntry): Outcome {
  const missingKey = c.option === 'missingkey=error' ? 'error' : c.option === 'missingkey=zero' ? 'zero' : undefined;
  let tmpl: ReturnType<typeof parse>;
  try {
    tmpl = parse(c.tname ?? 't', c.template, { funcs: webhookFuncs, missingKey });
  } catch (e) {
    if (!(e instanceof TemplateError)) throw e;
    return { output: '', error: e.message, phase: 'parse' };
  }
  try {
    return { output: tmpl.execute(c.data) };
  } catch (e) {
    if (!(e instanceof ExecError)) throw e;
    return { output: e.output, error: e.message, phase: 'exec' };
  }
}

describe('Go oracle corpus', () => {
  it('has several hundred cases', () => {
    expect(corpus.length).toBeGreaterThan(300);
  });
  it.each(corpus.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const expected: Outcome = { output: c.output };
    if (c.error !== undefined) Object.assign(expected, { error: c.error, phase: c.phase });
    expect(render(c)).toEqual(expected);
  });
});
