import { AppError } from '@svc/platform';
import { describe, expect, it } from 'vitest';
import { readReport, readUpdate } from './contract.readers.js';
import { installReport, statusUpdate } from './contract.schemas.js';
import { report, uuid } from './testing/dialects.js';

/** Values every field is tried with: the usual ones, the edges and the wrong types. */
const values: unknown[] = [
  undefined,
  null,
  '',
  ' ',
  0,
  -0,
  1,
  2,
  3,
  2.5,
  -1,
  4096,
  4097,
  1_000_000,
  1_000_001,
  16 * 1024 * 1024,
  Number.MAX_SAFE_INTEGER,
  '2',
  ' 4 ',
  '8G',
  '8.5g',
  '8T',
  'one',
  true,
  [],
  {},
  'lxc',
  'vm',
  'LXC',
  'pihole',
  'x'.repeat(8),
  'x'.repeat(9),
  'x'.repeat(32),
  'x'.repeat(33),
  'x'.repeat(64),
  'x'.repeat(65),
  'not found',
  '8.3.2',
  'installing',
  ' Done ',
  'sucess',
  'exploded',
  'e'.repeat(9000),
  uuid(1),
  ` ${uuid(2).toUpperCase()} `,
  'not-a-uuid',
];

const reportFields = [...Object.keys(report(1)), 'pve_version', 'extra'];
const updateFields = ['random_id', 'status', 'error', 'extra'];

/** What reading gives: the value, or the error body a client would see. */
function outcome(read: () => unknown): unknown {
  try {
    return { ok: read() };
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    return { error: (err as AppError).toBody() };
  }
}

/** The zod schema alone, worded as the endpoint words its failures. */
function viaZod(schema: typeof installReport | typeof statusUpdate, value: unknown): unknown {
  const r = schema.safeParse(value ?? {});
  return r.success ? { ok: r.data } : { error: expect.objectContaining({ error: 'validation_failed' }) };
}

describe('fast readers agree with the zod schemas', () => {
  it.each(reportFields)('report field %s with every probe value', (field) => {
    for (const v of values) {
      const body = { ...report(1), pve_version: '8.2.4', [field]: v };
      expect(
        outcome(() => readReport(body)),
        `${field}=${JSON.stringify(v)}`,
      ).toStrictEqual(viaZod(installReport, body));
    }
  });

  it.each(updateFields)('update field %s with every probe value', (field) => {
    for (const v of values) {
      const body = { random_id: uuid(3), status: 'failed', error: 'apt failed', [field]: v };
      expect(
        outcome(() => readUpdate(body)),
        `${field}=${JSON.stringify(v)}`,
      ).toStrictEqual(viaZod(statusUpdate, body));
    }
  });

  it('whole bodies that are not objects, and sparse bodies', () => {
    for (const body of [undefined, null, [], [1, 2], 'text', 7, {}, { random_id: uuid(4), type: 'vm', nsapp: 'x' }]) {
      expect(outcome(() => readReport(body))).toStrictEqual(viaZod(installReport, body));
      expect(outcome(() => readUpdate(body))).toStrictEqual(viaZod(statusUpdate, body));
    }
  });

  it('words a refusal exactly as before: the first three fields, then a count', () => {
    const r = outcome(() => readReport({ type: 'docker', ct_type: 9, core_count: -1, ram_size: 'x' }));
    expect(r).toMatchObject({
      error: {
        error: 'validation_failed',
        message:
          'Invalid request body: random_id (must be a UUID string); type (must be lxc or vm); nsapp (is required: the application name); and 3 more.',
      },
    });
  });
});
