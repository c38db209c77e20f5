import { AppError } from '@svc/platform';
import type { FastifyInstance } from 'fastify';

const NUMERIC = 'ct_type|disk_size|core_count|ram_size';

/**
 * The original bash client wrote numbers unquoted from shell variables, producing `"disk_size": 32G` and
 * `"ram_size": ,`. Those two mistakes are repaired (unit dropped, empty becomes null); anything else that
 * is not JSON is refused with the parser's message.
 */
export function parseLenientJson(text: string): unknown {
  const value = parseOrRepair(text);
  // Only objects' own keys matter: the schema reads known fields and nothing deeper than one level.
  if (
    value !== null &&
    typeof value === 'object' &&
    (Object.hasOwn(value, '__proto__') || Object.hasOwn(value, 'constructor'))
  ) {
    throw new AppError('invalid_json', 'The body uses a reserved key (__proto__ or constructor).');
  }
  return value;
}

function parseOrRepair(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    const repaired = text
      .replace(new RegExp(`("(?:${NUMERIC})"\\s*:\\s*)(\\d+(?:\\.\\d+)?)\\s*[Gg]\\b`, 'g'), '$1$2')
      .replace(new RegExp(`("(?:${NUMERIC})"\\s*:\\s*)(?=[,}])`, 'g'), '$1null');
    if (repaired !== text) {
      try {
        return JSON.parse(repaired);
      } catch {}
    }
    if (text.trim() === '') throw new AppError('invalid_json', 'The body is empty: send a JSON object.');
    throw new AppError('invalid_json', `The body is not valid JSON: ${(err as Error).message}.`);
  }
}

/** JSON bodies whatever the Content-Type says: `curl -d` without a header sends form encoding. */
export function installLenientJson(app: FastifyInstance): void {
  const parse = (_req: unknown, body: string | Buffer, done: (err: Error | null, body?: unknown) => void) => {
    try {
      done(null, parseLenientJson(String(body)));
    } catch (err) {
      done(err as Error, undefined);
    }
  };
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, parse);
  app.addContentTypeParser('*', { parseAs: 'string' }, parse);
}
