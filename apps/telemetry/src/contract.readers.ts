import { validationFailed } from '@svc/platform';
import type { z } from 'zod';
import {
  ERROR_MAX,
  type InstallReport,
  installReport,
  NO_ERROR_MESSAGE,
  NOT_FOUND,
  NSAPP_MAX,
  reportNumbers,
  reportTexts,
  type StatusUpdate,
  statusUpdate,
  UUID_PATTERN,
} from './contract.schemas.js';
import { normalizeStatus, type Status } from './ingest/ingest.status.js';

/**
 * The two ingest bodies, read for every report and update. The zod schemas are the contract (and the OpenAPI
 * document), but running them costs about 10 µs a body, as much as the rest of the HTTP work. So the common
 * shapes (strings, plain numbers, absent fields) are read here with the same rules, and anything else (numeric
 * strings, `32G`, wrong types, invalid values) goes through zod, which also words every error message.
 * contract.readers.test.ts checks both give the same result.
 */
export function readReport(value: unknown): InstallReport {
  return fastReport(value) ?? viaSchema(installReport, value);
}

export function readUpdate(value: unknown): StatusUpdate {
  return fastUpdate(value) ?? viaSchema(statusUpdate, value);
}

type Fields = Record<string, unknown>;

function fastReport(value: unknown): InstallReport | undefined {
  if (!isPlainObject(value)) return undefined;
  const random_id = uuid(value.random_id);
  const type = value.type;
  const nsapp = text(value.nsapp, NSAPP_MAX);
  const status = status_(value.status, 'installing');
  if (random_id === undefined || (type !== 'lxc' && type !== 'vm') || !nsapp || status === undefined) return;
  const ct_type = number(value.ct_type, reportNumbers.ct_type);
  const disk_size = number(value.disk_size, reportNumbers.disk_size);
  const core_count = number(value.core_count, reportNumbers.core_count);
  const ram_size = number(value.ram_size, reportNumbers.ram_size);
  const os_type = text(value.os_type, reportTexts.os_type);
  const os_version = text(value.os_version, reportTexts.os_version);
  const disableip6 = text(value.disableip6, reportTexts.disableip6);
  const method = text(value.method, reportTexts.method);
  const hv_version = text(value.hv_version, reportTexts.hv_version);
  const pve_version = text(value.pve_version, reportTexts.pve_version);
  if (
    ct_type === undefined ||
    disk_size === undefined ||
    core_count === undefined ||
    ram_size === undefined ||
    os_type === undefined ||
    os_version === undefined ||
    disableip6 === undefined ||
    method === undefined ||
    hv_version === undefined ||
    pve_version === undefined
  )
    return;
  const hv = hv_version || pve_version;
  return {
    random_id,
    type,
    nsapp,
    ct_type,
    disk_size,
    core_count,
    ram_size,
    os_type,
    os_version,
    disableip6,
    method,
    hv_version: hv === NOT_FOUND ? '' : hv,
    status,
  };
}

function fastUpdate(value: unknown): StatusUpdate | undefined {
  if (!isPlainObject(value)) return undefined;
  const random_id = uuid(value.random_id);
  const status = status_(value.status, 'failed');
  const error = value.error;
  if (random_id === undefined || status === undefined) return;
  if (error === undefined || error === null) return { random_id, status, error: NO_ERROR_MESSAGE };
  if (typeof error !== 'string') return;
  return { random_id, status, error: error.length > ERROR_MAX ? error.slice(0, ERROR_MAX) : error };
}

function isPlainObject(v: unknown): v is Fields {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function uuid(v: unknown): string | undefined {
  if (typeof v !== 'string') return;
  const s = v.trim();
  return UUID_PATTERN.test(s) ? s.toLowerCase() : undefined;
}

/** Strings and absent values only; numbers as text and the errors are zod's. */
function text(v: unknown, max: number): string | undefined {
  if (v === undefined || v === null) return '';
  return typeof v === 'string' && v.length <= max ? v : undefined;
}

/** Plain JSON numbers and absent values only; numeric strings and units are zod's. */
function number(v: unknown, opts: { readonly max: number; readonly integer: boolean }): number | null | undefined {
  if (v === undefined || v === null) return null;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v > opts.max) return;
  return opts.integer && !Number.isInteger(v) ? undefined : v;
}

function status_(v: unknown, fallback: Status): Status | undefined {
  if (v === undefined || v === null) return fallback;
  if (typeof v !== 'string') return;
  return v.trim() === '' ? fallback : normalizeStatus(v);
}

/** Unusual input goes through the schema, which also words every error exactly as the other routes do. */
function viaSchema<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const r = schema.safeParse(value === undefined || value === null ? {} : value);
  if (r.success) return r.data;
  throw validationFailed('body', r.error);
}
