import { EventEmitter } from 'node:events';
import type { Dispatcher } from 'undici';

/** A response as delivery needs it: status, Retry-After and the start of the body. */
export interface Exchanged {
  status: number;
  retryAfter?: string | string[];
  body: string;
}

const BODY_CAP = 4096;

/**
 * One abort signal shared by a window of concurrent requests: a listener per request on an AbortSignal grows
 * costlier with each one (its list is searched on every add). An emitter standing for the signal does not.
 */
class AbortRelay extends EventEmitter {
  constructor(readonly signal: AbortSignal) {
    super();
    this.setMaxListeners(0);
    signal.addEventListener('abort', () => this.emit('abort'), { once: true });
  }
}
const relays = new WeakMap<AbortSignal, AbortRelay>();
function relayOf(signal: AbortSignal): AbortRelay {
  let r = relays.get(signal);
  if (!r) {
    r = new AbortRelay(signal);
    relays.set(signal, r);
  }
  return r;
}

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
    const relay = signal ? relayOf(signal) : undefined;
    let controller: Dispatcher.DispatchController | undefined;
    let status = 0;
    let retryAfter: string | string[] | undefined;
    const parts: Buffer[] = [];
    let size = 0;
    const onAbort = () => controller?.abort(signal?.reason as Error);
    const done = () => relay?.removeListener('abort', onAbort);
    relay?.once('abort', onAbort);
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
