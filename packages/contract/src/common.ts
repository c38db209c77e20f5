import { z } from 'zod';

export const errorBody = z
  .object({
    error: z.string().describe('Stable machine-readable error code, such as `validation_failed`.'),
    message: z.string().describe('A sentence for people saying what went wrong and what to do.'),
    details: z.unknown().optional(),
  })
  .meta({ id: 'Error' });

/** Coerces query-string booleans: `true`/`1`/`yes` and `false`/`0`/`no`. */
export const queryBoolean = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

/** A whole number from a query string, with bounds. */
export const queryInt = (min: number, max: number) => z.coerce.number().int().min(min).max(max);
