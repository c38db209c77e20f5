import { readFileSync } from 'node:fs';
import { renderTemplate } from './areas/notifications/index.js';

export interface RenderIo {
  readFile(path: string): string;
  readStdin(): string;
  out(s: string): void;
  err(s: string): void;
}

export const processRenderIo: RenderIo = {
  readFile: (p) => readFileSync(p, 'utf8'),
  readStdin: () => readFileSync(0, 'utf8'),
  out: (s) => void process.stdout.write(s),
  err: (s) => void process.stderr.write(s),
};

const usage = 'usage: svc template render --template FILE|- --data FILE\n';

function flags(args: string[]): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  for (let i = 0; i < args.length; i += 2) {
    const name = args[i];
    const value = args[i + 1];
    if ((name !== '--template' && name !== '--data') || value === undefined) return undefined;
    out[name.slice(2)] = value;
  }
  return out.template !== undefined && out.data !== undefined ? out : undefined;
}

/**
 * `svc template render`: renders a webhook template with the data model and functions of live sends (the same
 * renderTemplate), prints only the result; on error prints Go's message on stderr and returns 1.
 */
export function runTemplateCommand(args: string[], io: RenderIo): number {
  if (args[0] !== 'render') {
    io.err(usage);
    return 2;
  }
  const f = flags(args.slice(1));
  if (!f) {
    io.err(usage);
    return 2;
  }
  let text: string;
  let data: unknown;
  try {
    text = f.template === '-' ? io.readStdin() : io.readFile(f.template!);
    data = JSON.parse(io.readFile(f.data!));
  } catch (err) {
    io.err(`svc template render: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
  try {
    io.out(renderTemplate('payload', text, data as Record<string, unknown>));
    return 0;
  } catch (err) {
    io.err(`${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
}
