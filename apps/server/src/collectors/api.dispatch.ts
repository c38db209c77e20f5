import type { IncomingHttpHeaders } from 'node:http';
import type { Dispatcher } from 'undici';
import { onAbort } from '../platform/http/abort-fanout.js';
import type { TimerHandle, Timers } from '../platform/jobs/index.js';

/** A whole response: the body is read once into a string, with no stream in between. */
export interface TextResponse {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

/** Why a request stopped before its response ended. */
export type StopReason = 'timeout' | 'aborted' | 'too-large';

export interface DispatchLimits {
  timers: Timers;
  timeoutMs: number;
  signal: AbortSignal | undefined;
  maxBytes: number;
  /** The error to reject with; called only when a request stops, so the common path builds none. */
  stopError: (why: StopReason, limits: DispatchLimits) => Error;
  /** For `stopError`: what the request was. */
  path: string;
}

/**
 * Send one request through undici's dispatcher and collect the body as text. One timer is the whole-request
 * deadline; the caller's signal and the deadline settle the promise at once, even while the request still
 * waits for a pooled connection, and the request is cancelled as soon as undici hands over its controller.
 */
export function dispatchText(
  dispatcher: Dispatcher,
  opts: Dispatcher.DispatchOptions,
  limits: DispatchLimits,
): Promise<TextResponse> {
  return new Promise((resolve, reject) => {
    const req = new TextRequest(resolve, reject, limits);
    if (limits.signal?.aborted) req.abortNow();
    else dispatcher.dispatch(opts, req);
  });
}

class TextRequest implements Dispatcher.DispatchHandler {
  private controller: Dispatcher.DispatchController | undefined;
  private stopped: Error | undefined;
  private done = false;
  private readonly timer: TimerHandle;
  private unwatch: (() => void) | undefined;
  private status = 0;
  private headers: IncomingHttpHeaders = {};
  private chunks: Buffer[] = [];
  private bytes = 0;

  constructor(
    private readonly resolve: (r: TextResponse) => void,
    private readonly reject: (e: Error) => void,
    private readonly limits: DispatchLimits,
  ) {
    this.timer = limits.timers.setTimeout(this.expire.bind(this), limits.timeoutMs);
    if (limits.signal && !limits.signal.aborted) this.unwatch = onAbort(limits.signal, () => this.abortNow());
  }

  abortNow(): void {
    this.stop(this.limits.stopError('aborted', this.limits));
  }

  private expire(): void {
    this.stop(this.limits.stopError('timeout', this.limits));
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    if (this.stopped) controller.abort(this.stopped);
    else this.controller = controller;
  }

  onResponseStart(_c: Dispatcher.DispatchController, status: number, headers: IncomingHttpHeaders): void {
    this.status = status;
    this.headers = headers;
    this.chunks = [];
    this.bytes = 0;
    if (Number(headers['content-length'] ?? 0) > this.limits.maxBytes)
      this.stop(this.limits.stopError('too-large', this.limits));
  }

  onResponseData(_c: Dispatcher.DispatchController, chunk: Buffer): void {
    this.bytes += chunk.length;
    if (this.bytes <= this.limits.maxBytes) this.chunks.push(chunk);
    else this.stop(this.limits.stopError('too-large', this.limits));
  }

  onResponseEnd(): void {
    if (this.finish())
      this.resolve({ status: this.status, headers: this.headers, text: decode(this.chunks, this.bytes) });
  }

  onResponseError(_c: Dispatcher.DispatchController, err: Error): void {
    if (this.finish()) this.reject(err);
  }

  private stop(err: Error): void {
    if (!this.finish()) return;
    this.stopped = err;
    this.reject(err);
    this.controller?.abort(err);
  }

  /** Settle once: clear the deadline and the signal watch; false if already settled. */
  private finish(): boolean {
    if (this.done) return false;
    this.done = true;
    this.limits.timers.clearTimeout(this.timer);
    this.unwatch?.();
    return true;
  }
}

/** UTF-8 with a leading BOM dropped, like undici's `body.text()`. */
function decode(chunks: Buffer[], bytes: number): string {
  const buf = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, bytes);
  const bom = buf.length >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf;
  return buf.toString('utf8', bom ? 3 : 0);
}
