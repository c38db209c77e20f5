import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseLenientJson } from '../src/http/http.body.js';
import { createTestTelemetry, type TestTelemetry } from '../src/testing/app.js';

export const FUNC = new URL('../client/telemetry.func', import.meta.url).pathname;

export interface Seen {
  method: string;
  url: string;
  status: number;
  body: unknown;
}

/**
 * The real service on a loopback port, recording what arrives (after JSON parsing) and the answer. Recorded
 * at the HTTP server, since the ingest routes never pass through Fastify's hooks.
 */
export async function startService(): Promise<{ t: TestTelemetry; url: string; seen: Seen[] }> {
  const t = await createTestTelemetry({ env: { SVC_TELEMETRY_RATE_LIMIT: '0' } });
  const seen: Seen[] = [];
  t.app.server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    res.on('finish', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      seen.push({ method: req.method ?? '', url: req.url ?? '', status: res.statusCode, body: parsed(text) });
    });
  });
  const url = await t.app.listen({ port: 0, host: '127.0.0.1' });
  return { t, url, seen };
}

function parsed(text: string): unknown {
  if (text === '') return undefined;
  try {
    return parseLenientJson(text);
  } catch {
    return text;
  }
}

/** Answers every request with a redirect (301 under /r301, 302 under /r302) to the same path on `target`. */
export async function startRedirector(target: string): Promise<{ url: string; server: Server; hits: string[] }> {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    req.resume();
    const m = /^\/r(301|302)(\/.*)$/.exec(req.url ?? '');
    hits.push(`${req.method} ${req.url}`);
    if (!m) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(Number(m[1]), { location: `${target}${m[2]}` }).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, hits };
}

/** A PATH holding only the tools a test allows: curl (unless hidden) and optionally a fake pveversion. */
export function toolPath(opts: { curl?: boolean; pveversion?: string } = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'telemetry-path-'));
  if (opts.curl !== false) symlinkSync('/usr/bin/curl', join(dir, 'curl'));
  if (opts.pveversion !== undefined) {
    writeFileSync(join(dir, 'pveversion'), `#!/bin/bash\nprintf '%s\\n' '${opts.pveversion}'\n`);
    chmodSync(join(dir, 'pveversion'), 0o755);
  }
  return dir;
}

export interface BashResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs an installer-like bash script that sources the library under `set -Eeuo pipefail` with an ERR trap. */
export function runInstaller(body: string, env: Record<string, string>, path = toolPath()): Promise<BashResult> {
  const script = [
    'set -Eeuo pipefail',
    `trap 'echo "ERR trap fired: $BASH_COMMAND" >&2; exit 99' ERR`,
    `source ${JSON.stringify(FUNC)}`,
    body,
    'echo installer-continued',
  ].join('\n');
  return new Promise((resolve, reject) => {
    const child = spawn('/bin/bash', ['--norc', '--noprofile', '-c', script], {
      env: { PATH: path, LANG: 'C.UTF-8', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
