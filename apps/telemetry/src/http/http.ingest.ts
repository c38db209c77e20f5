import type { IncomingMessage, ServerResponse } from 'node:http';
import { AppError, failureAnswer, genRequestId, type Logger } from '@svc/platform';
import { readReport, readUpdate } from '../contract.readers.js';
import { ingestAnswer } from '../contract.schemas.js';
import type { IngestAnswer, IngestService } from '../ingest/ingest.service.js';
import { parseLenientJson } from './http.body.js';
import type { FixedWindowLimiter } from './http.rate-limit.js';

export type IngestRoute = 'report' | 'update';

export interface IngestEndpointDeps {
  ingest: IngestService;
  log: Logger;
  /** Largest accepted body in bytes; larger ones get 413. */
  bodyLimit: number;
  /** Per client address; undefined turns the limit off. */
  limiter: FixedWindowLimiter | undefined;
  /** Take the client address from X-Forwarded-For. */
  trustProxy: boolean;
  /** Check each answer against its schema (tests). */
  validateResponses?: boolean;
}

/**
 * POST /upload and /upload/updatestatus on plain node:http: every installer run sends them, and Fastify's
 * per-request machinery (request and reply objects, child logger, hook chains) cost more than the work itself.
 * The behaviour is the one the Fastify routes had: the same error bodies and codes, X-Request-Id, rate-limit
 * headers (counted before the body is read, so invalid requests count too), the 16 KiB limit, JSON read
 * whatever the Content-Type says, and one log line per request without the client address.
 */
export class IngestEndpoint {
  /** Set when the server stops: answers then close their connection so the server can finish closing. */
  closing = false;

  constructor(private readonly deps: IngestEndpointDeps) {}

  /** The ingest route a request is for, or undefined for everything else (served by Fastify). */
  routeOf(req: IncomingMessage): IngestRoute | undefined {
    if (req.method !== 'POST') return undefined;
    const url = req.url ?? '';
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    return path === '/upload' ? 'report' : path === '/upload/updatestatus' ? 'update' : undefined;
  }

  serve(route: IngestRoute, req: IncomingMessage, res: ServerResponse): void {
    new Exchange(this, this.deps, route, req, res).run();
  }
}

const JSON_TYPE = 'application/json; charset=utf-8';
const noop = () => undefined;

/** One request: limit, body, validation, write, answer, log line. */
class Exchange {
  private readonly started = performance.now();
  private readonly id: string;
  /** Response headers as name, value pairs for one `writeHead`: cheaper than a setHeader call each. */
  private readonly headers: string[];
  private closeConnection = false;
  /** The body so far: most fit in one chunk, so an array is made only for a second one. */
  private first: Buffer | undefined;
  private rest: Buffer[] | undefined;
  private size = 0;
  /** Too large: the rest of the body is drained unread. */
  private refused = false;

  constructor(
    private readonly endpoint: IngestEndpoint,
    private readonly deps: IngestEndpointDeps,
    private readonly route: IngestRoute,
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
  ) {
    this.id = genRequestId(req);
    this.headers = ['content-type', JSON_TYPE, 'x-request-id', this.id];
  }

  run(): void {
    if (this.deps.limiter && !this.withinLimit(this.deps.limiter)) return;
    const { headers } = this.req;
    const declared = headers['content-length'];
    if (declared !== undefined && Number(declared) > this.deps.bodyLimit) {
      this.tooLarge();
      return;
    }
    // Fastify's rule: no Content-Type and no body means no body (validated as {}), not an empty JSON document.
    if (headers['content-type'] === undefined && headers['transfer-encoding'] === undefined && !Number(declared)) {
      this.req.resume();
      this.req.once('end', () => this.handle(undefined));
      return;
    }
    this.readBody();
  }

  private withinLimit(limiter: FixedWindowLimiter): boolean {
    const d = limiter.hit(this.clientAddress());
    this.headers.push(
      'ratelimit-limit',
      String(d.limit),
      'ratelimit-remaining',
      String(d.remaining),
      'ratelimit-reset',
      String(d.resetSeconds),
    );
    if (d.allowed) return true;
    this.req.resume();
    this.fail(
      new AppError(
        'rate_limited',
        `Too many reports from this address: at most ${d.limit} a minute. Try again in ${d.resetSeconds} s.`,
        undefined,
        { 'retry-after': String(d.resetSeconds) },
      ),
    );
    return false;
  }

  /** As Fastify's trustProxy: the left-most X-Forwarded-For entry, else the peer. Never logged or stored. */
  private clientAddress(): string {
    const forwarded = this.deps.trustProxy ? this.req.headers['x-forwarded-for'] : undefined;
    if (typeof forwarded === 'string' && forwarded !== '') return forwarded.split(',')[0]!.trim();
    return this.req.socket.remoteAddress ?? '';
  }

  private readBody(): void {
    // Inline arrows calling methods: tsx (tests, benchmarks) wraps every named closure in a costly `__name`.
    this.req.on('data', (chunk: Buffer) => this.onData(chunk));
    this.req.on('end', () => this.onEnd());
    // An aborted upload has nobody to answer; the socket is gone.
    this.req.on('error', noop);
  }

  private onData(chunk: Buffer): void {
    if (this.refused) return;
    this.size += chunk.length;
    if (this.size > this.deps.bodyLimit) {
      this.refused = true;
      this.tooLarge();
      return;
    }
    if (this.first === undefined) this.first = chunk;
    else if (this.rest === undefined) this.rest = [this.first, chunk];
    else this.rest.push(chunk);
  }

  private onEnd(): void {
    if (this.refused) return;
    const body = this.rest ? Buffer.concat(this.rest, this.size) : this.first;
    this.handle(body === undefined ? '' : body.toString('utf8'));
  }

  private tooLarge(): void {
    // The rest of the body is not worth reading: answer and close the connection.
    this.closeConnection = true;
    this.req.resume();
    this.fail(new AppError('payload_too_large', 'The request body is larger than this endpoint accepts.'));
  }

  private handle(text: string | undefined): void {
    let answered: Promise<void>;
    try {
      const value = text === undefined ? undefined : parseLenientJson(text);
      answered =
        this.route === 'report'
          ? this.deps.ingest.recordReport(readReport(value)).then((r) => this.answer(r.created ? 201 : 200, r.body))
          : this.deps.ingest.recordStatusUpdate(readUpdate(value)).then((body) => this.answer(200, body));
    } catch (err) {
      this.fail(err);
      return;
    }
    answered.catch((err: unknown) => this.fail(err));
  }

  private answer(status: number, body: IngestAnswer): void {
    if (this.deps.validateResponses) {
      const r = ingestAnswer.safeParse(body);
      if (!r.success) {
        this.fail(new Error(`Response of the ${this.route} route breaks its contract: ${r.error.message}`));
        return;
      }
    }
    this.send(status, JSON.stringify(body));
  }

  /** The platform's error handler, for these two routes. */
  private fail(err: unknown): void {
    const answer = failureAnswer(err, this.id, this.deps.log.child({ reqId: this.id }));
    for (const [k, v] of Object.entries(answer.headers)) this.headers.push(k, v);
    this.send(answer.status, JSON.stringify(answer.toBody()));
  }

  private send(status: number, json: string): void {
    const { res } = this;
    if (res.headersSent || res.destroyed) return;
    if (this.closeConnection || this.endpoint.closing) this.headers.push('connection', 'close');
    res.writeHead(status, this.headers).end(json);
    this.logLine(status);
  }

  private logLine(status: number): void {
    const level = status >= 500 ? 'error' : status >= 400 ? 'info' : 'debug';
    const { log } = this.deps;
    if (!log.isLevelEnabled(level)) return;
    const url = this.req.url ?? '';
    const q = url.indexOf('?');
    log[level](
      {
        reqId: this.id,
        method: 'POST',
        url: q < 0 ? url : url.slice(0, q),
        status,
        ms: Math.round(performance.now() - this.started),
      },
      'request',
    );
  }
}
