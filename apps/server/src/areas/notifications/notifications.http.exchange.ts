import type { Dispatcher } from 'undici';
import { onAbort } from '../../platform/http/abort-fanout.js';

/** A response as delivery needs it: status, Retry-After and the start of the body. */
export interface Exchanged {
  status: number;
  retryAfter?: string | string[];
  body: string;
}

const BODY_CAP = 4096;

/**
 * One request through undici's handler interface: the response is collected as it arrives, without the
 * stream, promise wrappers and header object `request()` builds per response. Rejects with undici's error
 * (or the signal's reason when aborted).
 */
export function exchange(
  dispatcher: Dispatcher,
  opts: { origin: string; path: string; method: string; headers: Record<string, string>; body: string },
  signal?: AbortSignal,
): Promise<Exchanged> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    let controller: Dispatcher.DispatchController | undefined;
    let status = 0;
    let retryAfter: string | string[] | undefined;
    const parts: Buffer[] = [];
    let size = 0;
    // One listener on the signal for a whole window of requests (see onAbort).
    const done = signal ? onAbort(signal, () => controller?.abort(signal.reason as Error)) : () => {};
    try {
      dispatcher.dispatch(
        {
          origin: opts.origin,
          path: opts.path,
          method: opts.method as Dispatcher.HttpMethod,
          headers: opts.headers,
          body: opts.body,
        },
        {
          onRequestStart(c) {
            controller = c;
            if (signal?.aborted) c.abort(signal.reason as Error);
          },
          onResponseStart(_c, statusCode, headers) {
            status = statusCode;
            retryAfter = headers['retry-after'];
          },
          onResponseData(_c, chunk) {
            if (size < BODY_CAP) parts.push(chunk);
            size += chunk.length;
          },
          onResponseEnd() {
            done();
            const body = size === 0 ? '' : Buffer.concat(parts).toString('utf8').slice(0, BODY_CAP);
            resolve({ status, retryAfter, body });
          },
          onResponseError(_c, err) {
            done();
            reject(err);
          },
        },
      );
    } catch (err) {
      done();
      reject(err);
    }
  });
}
