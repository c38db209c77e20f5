import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { isMainThread, type MessagePort, parentPort, Worker, workerData } from 'node:worker_threads';
import type { Logger } from '@svc/platform';
import { openTelemetryDatabase, runnerFor, type SqlRunner } from '../db/index.js';
import { type IngestWriter, type ResultOf, runCommand, type WriteCommand } from './ingest.commands.js';
import { commitBatch, MAX_BATCH } from './ingest.writer.js';

/**
 * SQLite writes in a worker thread with its own connection. better-sqlite3 commits synchronously, and with
 * fsync'd commits the HTTP thread would stall for every one of them; here the HTTP thread only validates and
 * hands commands over, and each caller's promise resolves when the worker reports its batch committed, so an
 * answer is still sent only after its record is durable.
 *
 * The bundle (dist/cli.js) is a single file, so the worker runs the module it was started from: this one in
 * a checkout, cli.js when bundled. The guard at the bottom starts the writer loop only inside such a worker.
 */
const ROLE = 'svc-telemetry-writer';

interface ThreadData {
  role: typeof ROLE;
  dataDir: string;
  durableWrites: boolean;
}

interface Request {
  id: number;
  cmd: WriteCommand;
}

type Reply = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: SerializedError };
interface SerializedError {
  name: string;
  message: string;
  code?: unknown;
}

/**
 * Commands and replies cross as JSON text (`Request[]`, `Reply[]`): a string is copied in one piece, while
 * structured cloning walks every field of every record, on both threads. Commands hold only strings, finite
 * numbers and null, which JSON carries unchanged.
 */
type ToWorker = { type: 'commands'; requests: string } | { type: 'close' };
type FromWorker =
  | { type: 'ready' }
  | { type: 'failed'; error: SerializedError }
  | { type: 'results'; replies: string; messages: number };

/** Longest wait for the writes last seen in flight to come back before the next commit starts without them. */
const LINGER_MS = 1;

interface Waiter {
  resolve(v: unknown): void;
  reject(e: unknown): void;
}

const serialize = (err: unknown): SerializedError =>
  err instanceof Error
    ? { name: err.name, message: err.message, code: (err as { code?: unknown }).code }
    : { name: 'Error', message: String(err) };

const revive = (e: SerializedError) => Object.assign(new Error(e.message), { name: e.name, code: e.code });

/**
 * HTTP-thread side: queues commands and settles callers on the replies. The worker holds one message at a time:
 * what arrives while it commits waits here and goes as one message when the commit reports back. Clients
 * answered by that commit send their next write a moment later; rather than starting a commit without them
 * (which splits steady traffic into two half-size commits for good), the next message waits up to LINGER_MS
 * for as many writes as were in flight last time. A fsync and a message then serve twice the records.
 */
export class WorkerWriter implements IngestWriter {
  private readonly waiting = new Map<number, Waiter>();
  private outbox: Request[] = [];
  /** Messages posted to the current worker whose commands are not yet committed (0 or 1). */
  private posted = 0;
  private flushScheduled = false;
  /** Writes in flight when the last commit reported back: how many the next commit waits for (briefly). */
  private target = 1;
  private linger: NodeJS.Timeout | undefined;
  private nextId = 1;
  private idleWaiters: (() => void)[] = [];
  private closing = false;
  /** Undefined while a replacement for a crashed worker starts; commands wait in the outbox meanwhile. */
  private worker: Worker | undefined;
  /** Why the writer cannot start again (until a retry succeeds): writes fail fast instead of queueing. */
  private broken: unknown;

  private constructor(
    worker: Worker,
    private readonly data: ThreadData,
    private readonly log: Logger,
  ) {
    this.attach(worker);
  }

  /** Starts the worker and waits until it has opened the database (errors such as a locked file surface here). */
  static async start(opts: { dataDir: string; durableWrites: boolean; log: Logger }): Promise<WorkerWriter> {
    const data: ThreadData = { role: ROLE, dataDir: opts.dataDir, durableWrites: opts.durableWrites };
    return new WorkerWriter(await spawn(data), data, opts.log);
  }

  submit<C extends WriteCommand>(cmd: C): Promise<ResultOf<C>> {
    if (this.closing) return Promise.reject(new Error('The telemetry writer is shutting down.'));
    if (this.broken) return Promise.reject(this.broken);
    return new Promise((resolve, reject) => {
      const id = this.nextId++;
      this.waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.outbox.push({ id, cmd });
      if (!this.flushScheduled && this.posted === 0) {
        this.flushScheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  drained(): Promise<void> {
    if (this.waiting.size === 0) return Promise.resolve();
    return new Promise((done) => this.idleWaiters.push(done));
  }

  async close(): Promise<void> {
    await this.drained();
    this.closing = true;
    const worker = this.worker;
    if (!worker) return;
    const exited = new Promise((done) => worker.once('exit', done));
    worker.postMessage({ type: 'close' } satisfies ToWorker);
    await exited;
  }

  private flush(force = false): void {
    this.flushScheduled = false;
    if (!this.worker || this.outbox.length === 0 || this.posted > 0) return;
    if (!force && this.outbox.length < this.target) {
      this.linger ??= setTimeout(() => {
        this.linger = undefined;
        this.flush(true);
      }, LINGER_MS);
      return;
    }
    clearTimeout(this.linger);
    this.linger = undefined;
    const requests = JSON.stringify(this.outbox);
    this.outbox = [];
    this.posted++;
    this.worker.postMessage({ type: 'commands', requests } satisfies ToWorker);
  }

  private settle(replies: Reply[]): void {
    for (const r of replies) {
      const w = this.waiting.get(r.id);
      this.waiting.delete(r.id);
      if (r.ok) w?.resolve(r.value);
      else w?.reject(revive(r.error));
    }
    if (this.waiting.size === 0) for (const done of this.idleWaiters.splice(0)) done();
  }

  private attach(worker: Worker): void {
    this.worker = worker;
    worker.on('message', (msg: FromWorker) => {
      if (msg.type !== 'results') return;
      this.posted -= msg.messages;
      this.target = this.waiting.size;
      this.settle(JSON.parse(msg.replies) as Reply[]);
      this.flush();
    });
    worker.on('error', (err) => this.log.error({ err }, 'telemetry writer thread failed'));
    worker.on('exit', (code) => {
      if (!this.closing) this.restart(code);
    });
  }

  /** A crashed writer must not leave callers hanging or stop ingest for good: fail what it held, start anew. */
  private restart(code: number): void {
    this.worker = undefined;
    this.posted = 0;
    const err = new Error(`The telemetry writer thread stopped (exit code ${code}); the write was not committed.`);
    const queued = new Set(this.outbox.map((r) => r.id));
    // Commands still in the outbox never reached the dead worker: they wait for the new one.
    this.settle(
      [...this.waiting.keys()].filter((id) => !queued.has(id)).map((id) => ({ id, ok: false, error: serialize(err) })),
    );
    this.log.error({ code }, 'telemetry writer thread stopped; starting a new one');
    this.respawn();
  }

  private respawn(): void {
    spawn(this.data).then(
      (w) => {
        this.broken = undefined;
        this.attach(w);
        this.flush();
      },
      (e: unknown) => {
        this.log.error({ err: e }, 'could not restart the telemetry writer thread; retrying in 5 s');
        this.broken = e;
        this.settle([...this.waiting.keys()].map((id) => ({ id, ok: false, error: serialize(e) })));
        this.outbox = [];
        setTimeout(() => this.respawn(), 5000).unref();
      },
    );
  }
}

function spawn(data: ThreadData): Promise<Worker> {
  const url = new URL(import.meta.url);
  const worker = url.pathname.endsWith('.ts')
    ? new Worker(tsxBootstrap(url), { eval: true, workerData: data })
    : new Worker(url, { workerData: data });
  return new Promise((resolve, reject) => {
    const onMessage = (msg: FromWorker) => {
      if (msg.type === 'ready') resolve(worker);
      else if (msg.type === 'failed') reject(revive(msg.error));
      if (msg.type !== 'results') worker.off('message', onMessage);
    };
    worker.on('message', onMessage);
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`The telemetry writer thread exited during start (code ${code}).`)));
  });
}

/**
 * Unbundled TypeScript (tests, benchmarks, `tsx`): on Node 20 the loader hooks of the parent thread do not
 * reach a worker, and `--import tsx` skips registering them off the main thread, so register them here.
 */
function tsxBootstrap(url: URL): string {
  // The ESM build of tsx's API: its CommonJS build registers hooks that fail to resolve their own files.
  const api = pathToFileURL(
    createRequire(import.meta.url)
      .resolve('tsx/esm/api')
      .replace(/\.cjs$/, '.mjs'),
  ).href;
  return `import(${JSON.stringify(api)}).then((m) => { m.register(); return import(${JSON.stringify(url.href)}); });`;
}

/** Worker side: one connection, batches of whatever arrived while the previous commit ran. */
function runWriterThread(port: MessagePort, data: ThreadData): void {
  let handle: ReturnType<typeof openTelemetryDatabase>;
  try {
    handle = openTelemetryDatabase({
      dataDir: data.dataDir,
      databaseUrl: undefined,
      durableWrites: data.durableWrites,
    });
  } catch (err) {
    port.postMessage({ type: 'failed', error: serialize(err) } satisfies FromWorker);
    return;
  }
  const runner = runnerFor(handle);
  // One entry per message: a message is committed whole, so each reply acknowledges whole messages.
  const queue: Request[][] = [];
  let draining = false;
  let closing = false;
  const finish = () => void handle.close().finally(() => port.close());
  const drain = async () => {
    while (queue.length > 0) {
      let n = 0;
      let size = 0;
      while (n < queue.length && (n === 0 || size + queue[n]!.length <= MAX_BATCH)) size += queue[n++]!.length;
      await commitAndReply(port, runner, queue.splice(0, n));
    }
    draining = false;
    if (closing) finish();
  };
  port.on('message', (msg: ToWorker) => {
    if (msg.type === 'close') closing = true;
    else queue.push(JSON.parse(msg.requests) as Request[]);
    if (draining) return;
    if (queue.length === 0) {
      if (closing) finish();
      return;
    }
    draining = true;
    // Let every message already waiting on the port arrive first, so they share one commit.
    setImmediate(() => void drain());
  });
  port.postMessage({ type: 'ready' } satisfies FromWorker);
}

async function commitAndReply(port: MessagePort, runner: SqlRunner, messages: Request[][]): Promise<void> {
  const batch = messages.length === 1 ? messages[0]! : messages.flat();
  const settled = await commitBatch(
    runner,
    batch.map((r) => (tx, deltas) => runCommand(tx, deltas, r.cmd)),
  );
  const replies = settled.map(
    (s, i): Reply =>
      s.ok
        ? { id: batch[i]!.id, ok: true, value: s.value }
        : { id: batch[i]!.id, ok: false, error: serialize(s.error) },
  );
  port.postMessage({
    type: 'results',
    replies: JSON.stringify(replies),
    messages: messages.length,
  } satisfies FromWorker);
}

const started = workerData as ThreadData | undefined;
if (!isMainThread && parentPort && started?.role === ROLE) runWriterThread(parentPort, started);
