import { type DestinationStream, type Logger, pino } from 'pino';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export type { Logger };

/** Paths pino blanks out wherever they appear in a log object: credentials never reach the log. */
export const redactPaths = [
  'password',
  '*.password',
  'newPassword',
  'currentPassword',
  'token',
  '*.token',
  'apiToken',
  'secret',
  '*.secret',
  'passphrase',
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-token"]',
  'req.headers["x-setup-token"]',
  'req.headers["x-csrf-token"]',
  'req.headers["x-recovery-token"]',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers.cookie',
];

export interface LoggerOptions {
  level: LogLevel;
  name: string;
  /** Human-readable lines (for a terminal) instead of JSON lines. */
  pretty?: boolean;
  /** Where lines go; default stdout. Tests pass a collecting stream. */
  destination?: DestinationStream;
}

export function createLogger(opts: LoggerOptions): Logger {
  const base = {
    level: opts.level,
    name: opts.name,
    redact: { paths: redactPaths, censor: '[redacted]' },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
  if (opts.destination) return pino(base, opts.destination);
  if (opts.pretty) {
    return pino({
      ...base,
      transport: { target: 'pino-pretty', options: { colorize: true, translateTime: 'SYS:standard' } },
    });
  }
  return pino(base);
}

/** A logger that keeps its lines in memory, for tests that check what was (or was not) logged. */
export function createMemoryLogger(level: LogLevel = 'debug'): { logger: Logger; lines: () => string[] } {
  const chunks: string[] = [];
  const destination = { write: (s: string) => void chunks.push(s) } as DestinationStream;
  const logger = createLogger({ level, name: 'test', destination });
  return { logger, lines: () => chunks.join('').split('\n').filter(Boolean) };
}

/**
 * A child logger that is only built when something logs through it. pino's child() serializes and redacts
 * its bindings up front, which costs more than the rest of a health probe; most requests never log.
 * Fastify takes it through `childLoggerFactory` for each request's `req.log`.
 */
class LazyChildLogger {
  #real: Logger | undefined;
  constructor(
    private readonly parent: Logger,
    private readonly childBindings: Record<string, unknown>,
    private readonly options: object,
  ) {}
  get real(): Logger {
    this.#real ??= this.parent.child(this.childBindings, this.options);
    return this.#real;
  }
  get level(): string {
    return this.#real?.level ?? this.parent.level;
  }
  set level(value: string) {
    this.real.level = value;
  }
  isLevelEnabled(level: string): boolean {
    return (this.#real ?? this.parent).isLevelEnabled(level);
  }
  bindings(): Record<string, unknown> {
    return this.real.bindings();
  }
  child(bindings: Record<string, unknown>, options?: object): Logger {
    return this.real.child(bindings, options);
  }
  fatal(...args: unknown[]): void {
    this.write('fatal', args);
  }
  error(...args: unknown[]): void {
    this.write('error', args);
  }
  warn(...args: unknown[]): void {
    this.write('warn', args);
  }
  info(...args: unknown[]): void {
    this.write('info', args);
  }
  debug(...args: unknown[]): void {
    this.write('debug', args);
  }
  trace(...args: unknown[]): void {
    this.write('trace', args);
  }
  silent(): void {}
  private write(level: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace', args: unknown[]): void {
    // Below the level nothing is written, so the child is not worth building.
    if (!this.isLevelEnabled(level)) return;
    const real = this.real;
    (real[level] as (...a: unknown[]) => void).apply(real, args);
  }
}

export function lazyChildLogger(parent: Logger, bindings: Record<string, unknown>, options: object = {}): Logger {
  return new LazyChildLogger(parent, bindings, options) as unknown as Logger;
}
