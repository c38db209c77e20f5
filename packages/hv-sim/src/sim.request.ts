import type { IncomingMessage } from 'node:http';
import type { Params } from './routes.common.js';

const MAX_BODY = 1024 * 1024;

/** Query-string parameters; a repeated key becomes an array (bak's list parameters). */
export function queryParams(search: URLSearchParams): Params {
  const out: Params = {};
  for (const [k, v] of search) {
    const prev = out[k];
    out[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
  }
  return out;
}

export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) {
        reject(new Error('request body too large'));
        req.destroy();
      } else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** Form-encoded (what the real clients send) or JSON bodies, flattened to string parameters. */
export function bodyParams(contentType: string | undefined, body: string): Params {
  if (!body) return {};
  if (contentType?.includes('application/json')) {
    const parsed = JSON.parse(body) as Record<string, unknown>;
    const out: Params = {};
    for (const [k, v] of Object.entries(parsed)) {
      if (v === null || v === undefined) continue;
      out[k] = Array.isArray(v) ? v.map(String) : typeof v === 'boolean' ? (v ? '1' : '0') : String(v);
    }
    return out;
  }
  return queryParams(new URLSearchParams(body));
}
