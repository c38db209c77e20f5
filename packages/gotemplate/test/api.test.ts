// The TypeScript-side API: custom functions, typed signatures, errors and data functions for `call`.
import { describe, expect, it } from 'vitest';
import { ExecError, FuncError, goFunc, parse, TemplateError, webhookFuncs } from '../src/index.js';

describe('custom functions', () => {
  it('calls a plain function as func(...interface{}) (interface{}, error)', () => {
    const t = parse('t', '{{add 1 2.5 | printf "%v"}}', {
      funcs: {
        add: (...xs: unknown[]) =>
          xs.reduce((a: number, x) => a + Number(typeof x === 'object' ? (x as { value: bigint }).value : x), 0),
      },
    });
    expect(t.execute({})).toBe('3.5');
  });

  it('reports a thrown error like a Go error result', () => {
    const t = parse('t', '{{fail "x"}}', {
      funcs: {
        fail: () => {
          throw new FuncError('boom');
        },
      },
    });
    expect(() => t.execute({})).toThrow(
      new ExecError('template: t:1:2: executing "t" at <fail "x">: error calling fail: boom', 't'),
    );
  });

  it('checks typed signatures with Go wording', () => {
    const t = parse('t', '{{shout .N}}', { funcs: { shout: goFunc(['string'], ((s: string) => `${s}!`) as never) } });
    expect(() => t.execute({ N: 1 })).toThrow('wrong type for value; expected string; got float64');
    expect(
      parse('t', '{{shout "a"}}', { funcs: { shout: goFunc(['string'], ((s: string) => `${s}!`) as never) } }).execute(
        {},
      ),
    ).toBe('a!');
  });

  it('rejects unknown functions at parse time, with Go message', () => {
    expect(() => parse('p', 'x\n{{nope}}')).toThrow(new TemplateError('template: p:2: function "nope" not defined'));
  });

  it('lets call invoke a function found in the data', () => {
    const t = parse('t', '{{call .F 2 "x"}}');
    expect(t.execute({ F: (n: unknown, s: unknown) => `${String((n as { value: bigint }).value)}-${s}` })).toBe('2-x');
  });

  it('keeps partial output on ExecError', () => {
    try {
      parse('t', 'ok {{.A.B}}', { funcs: webhookFuncs }).execute({ A: 's' });
    } catch (e) {
      expect((e as ExecError).output).toBe('ok ');
      return;
    }
    throw new Error('expected an error');
  });

  it('runs a named template with executeTemplate', () => {
    const t = parse('t', '{{define "x"}}[{{.}}]{{end}}');
    expect(t.executeTemplate('x', 5)).toBe('[5]');
    expect(() => t.executeTemplate('y', 5)).toThrow('template: no template "y" associated with template "t"');
  });
});
