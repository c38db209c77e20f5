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
