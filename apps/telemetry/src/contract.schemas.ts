import { z } from 'zod';
import { normalizeStatus, statuses } from './ingest/ingest.status.js';

/**
 * Request and response shapes of svc-telemetry. Liberal where real bash clients are sloppy (numbers as
 * strings, `32G`, extra fields, null for an empty variable), strict where it matters (type, id, status).
 */
export const UUID_PATTERN = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

const uuid = z
  .string({ error: 'must be a UUID string' })
  .trim()
  .regex(UUID_PATTERN, 'must be a UUID')
  .transform((s) => s.toLowerCase());

/** A number, a numeric string or nothing (absent, null, ""), bounded; a unit letter is allowed where given. */
function looseNumber(opts: { readonly max: number; readonly integer: boolean; readonly unit?: string }) {
  const what = `${opts.integer ? 'a whole number' : 'a number'} from 0 to ${opts.max}`;
  const unit = opts.unit ? `[${opts.unit.toLowerCase()}${opts.unit.toUpperCase()}]?` : '';
  const pattern = new RegExp(`^\\s*(\\d+(?:\\.\\d+)?)\\s*${unit}\\s*$`);
  return z
    .unknown()
    .optional()
    .transform((v, ctx): number | null => {
      if (v === undefined || v === null || v === '') return null;
      const n = typeof v === 'number' ? v : typeof v === 'string' ? Number(pattern.exec(v)?.[1] ?? Number.NaN) : NaN;
      if (!Number.isFinite(n) || n < 0 || n > opts.max || (opts.integer && !Number.isInteger(n))) {
        ctx.addIssue({
          code: 'custom',
          message: `must be ${what}${opts.unit ? ` (a trailing ${opts.unit} is fine)` : ''}`,
        });
        return z.NEVER;
      }
      return n;
    })
    .meta({ description: what });
}

/** Free text kept verbatim (so quotes, newlines and unicode arrive intact), bounded in length. */
function text(max: number, required?: string) {
  // One transform instead of union/optional/nullable/refine layers: this runs for every field of every report.
  return z
    .unknown()
    .optional()
    .transform((v, ctx): string => {
      const s =
        v === undefined || v === null ? '' : typeof v === 'string' ? v : typeof v === 'number' ? String(v) : null;
      if (s === null) ctx.addIssue({ code: 'custom', message: `must be a string of at most ${max} characters` });
      else if (s.length > max) ctx.addIssue({ code: 'custom', message: `must be at most ${max} characters` });
      else if (required && s === '') ctx.addIssue({ code: 'custom', message: `is required: ${required}` });
      else return s;
      return z.NEVER;
    })
    .meta({ description: `text, at most ${max} characters` });
}

const statusField = (fallback: string) =>
  z
    .string({ error: 'must be a string' })
    .optional()
    .nullable()
    .transform((v, ctx) => {
      if (v === undefined || v === null || v.trim() === '') return normalizeStatus(fallback)!;
      const s = normalizeStatus(v);
      if (!s) {
        ctx.addIssue({ code: 'custom', message: `must be one of ${statuses.join(', ')}` });
        return z.NEVER;
      }
      return s;
    });

/** The original client's placeholder for an unreadable hypervisor version. */
export const NOT_FOUND = 'not found';

/** What a status update's error is when the client sends none (the spec's default). */
export const NO_ERROR_MESSAGE = 'No error message';

/** Bounds of the report's numbers and texts, shared with the fast reader (contract.readers.ts). */
export const reportNumbers = {
  ct_type: { max: 2, integer: true },
  disk_size: { max: 1_000_000, integer: false, unit: 'G' },
  core_count: { max: 4096, integer: true },
  ram_size: { max: 16 * 1024 * 1024, integer: true },
} as const;
export const reportTexts = {
  os_type: 32,
  os_version: 32,
  disableip6: 8,
  method: 32,
  hv_version: 32,
  pve_version: 32,
} as const;
export const NSAPP_MAX = 64;

export const installReport = z
  .object({
    random_id: uuid,
    type: z.enum(['lxc', 'vm'], { error: 'must be lxc or vm' }),
    nsapp: text(NSAPP_MAX, 'the application name'),
    ct_type: looseNumber(reportNumbers.ct_type),
    disk_size: looseNumber(reportNumbers.disk_size),
    core_count: looseNumber(reportNumbers.core_count),
    ram_size: looseNumber(reportNumbers.ram_size),
    os_type: text(reportTexts.os_type),
    os_version: text(reportTexts.os_version),
    disableip6: text(reportTexts.disableip6),
    method: text(reportTexts.method),
    hv_version: text(reportTexts.hv_version),
    /** What the original clients called hv_version; accepted so they can report unchanged. */
    pve_version: text(reportTexts.pve_version),
    status: statusField('installing'),
  })
  .transform(({ pve_version, ...r }) => {
    const hv = r.hv_version || pve_version;
    return { ...r, hv_version: hv === NOT_FOUND ? '' : hv };
  })
  .meta({ id: 'InstallReport' });
export type InstallReport = z.infer<typeof installReport>;

/** Error texts are truncated rather than refused: losing the outcome would leave the record stuck. */
export const ERROR_MAX = 8192;

export const statusUpdate = z
  .object({
    random_id: uuid,
    status: statusField('failed'),
    error: z
      .union([z.string(), z.number()], { error: 'must be a string' })
      .optional()
      .nullable()
      .transform((v) => (v === undefined || v === null ? NO_ERROR_MESSAGE : String(v).slice(0, ERROR_MAX))),
  })
  .meta({ id: 'StatusUpdate' });
export type StatusUpdate = z.infer<typeof statusUpdate>;

export const ingestAnswer = z
  .object({ message: z.string(), random_id: z.string(), status: z.string() })
  .meta({ id: 'IngestAnswer' });

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date YYYY-MM-DD')
  .refine((s) => {
    const d = new Date(`${s}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(s);
  }, 'is not a real calendar date');

const rangeFields = { from: day.optional(), to: day.optional() };
const limit = (max: number, def: number) => z.coerce.number().int().min(1).max(max).default(def);
const fromNotAfterTo = (q: { from?: string | undefined; to?: string | undefined }) =>
  !q.from || !q.to || q.from <= q.to;
const rangeMsg = { message: 'from must not be after to', path: ['from'] };

export const rangeQuery = z.strictObject(rangeFields).refine(fromNotAfterTo, rangeMsg);
export const topQuery = z.strictObject({ ...rangeFields, limit: limit(500, 20) }).refine(fromNotAfterTo, rangeMsg);
export const errorsQuery = z
  .strictObject({ ...rangeFields, limit: limit(100, 10), nsapp: z.string().min(1).max(64).optional() })
  .refine(fromNotAfterTo, rangeMsg);
/** Deep offsets cost a scan each; beyond this, narrow the filters or the date range instead of paging. */
export const MAX_PAGED = 10_000;

export const recordsQuery = z
  .strictObject({
    ...rangeFields,
    page: z.coerce.number().int().min(1).max(100_000).default(1),
    limit: limit(100, 25),
    status: z.enum(statuses).optional(),
    nsapp: z.string().min(1).max(64).optional(),
    type: z.enum(['lxc', 'vm']).optional(),
    os: z.string().min(1).max(32).optional(),
  })
  .refine(fromNotAfterTo, rangeMsg)
  .refine((q) => (q.page - 1) * q.limit < MAX_PAGED, {
    message: `only the first ${MAX_PAGED} matching records can be paged; narrow the filters or the date range`,
    path: ['page'],
  });
export type RecordsQuery = z.infer<typeof recordsQuery>;

const counts = {
  total: z.number().int(),
  success: z.number().int(),
  failed: z.number().int(),
  aborted: z.number().int(),
  inProgress: z.number().int(),
  unknown: z.number().int(),
  /** failed / (success + failed + aborted); null before anything finished. */
  failureRate: z.number().nullable(),
};

export const summary = z
  .object({
    from: z.string().nullable(),
    to: z.string().nullable(),
    ...counts,
    successRate: z.number().nullable(),
    byStatus: z.record(z.string(), z.number().int()),
    /** Status updates for ids never reported: initial reports that were lost. */
    orphanUpdates: z.number().int(),
  })
  .meta({ id: 'Summary' });

export const appStats = z.array(z.object({ nsapp: z.string(), ...counts })).meta({ id: 'AppStats' });
export const osStats = z
  .array(z.object({ os_type: z.string(), os_version: z.string(), ...counts }))
  .meta({ id: 'OsStats' });
export const typeStats = z.array(z.object({ type: z.string(), ...counts })).meta({ id: 'TypeStats' });
export const dayStats = z.array(z.object({ day: z.string(), ...counts })).meta({ id: 'DayStats' });
export const errorStats = z.array(z.object({ error: z.string(), count: z.number().int() })).meta({ id: 'ErrorStats' });

export const installRecord = z
  .object({
    random_id: z.string(),
    created_at: z.string().describe('ISO 8601 UTC'),
    updated_at: z.string(),
    type: z.string(),
    nsapp: z.string(),
    status: z.string(),
    error: z.string(),
    ct_type: z.number().nullable(),
    disk_size: z.number().nullable(),
    core_count: z.number().nullable(),
    ram_size: z.number().nullable(),
    os_type: z.string(),
    os_version: z.string(),
    disableip6: z.string(),
    method: z.string(),
    hv_version: z.string(),
  })
  .meta({ id: 'InstallRecord' });
export type InstallRecord = z.infer<typeof installRecord>;

export const recordPage = z
  .object({
    records: z.array(installRecord),
    page: z.number().int(),
    limit: z.number().int(),
    total: z.number().int(),
    /** false when the filter matched more rows than were counted (total is then a lower bound). */
    totalExact: z.boolean(),
    totalPages: z.number().int(),
  })
  .meta({ id: 'RecordPage' });
