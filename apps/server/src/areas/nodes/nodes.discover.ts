import { connect } from 'node:net';
import { AppError } from '@svc/platform';
import type { Agent } from 'undici';
import { undici } from '../../platform/http/undici.js';

export interface Discovered {
  host: string;
  port: number;
  url: string;
  type: 'hv' | 'bak' | 'mail';
  version: string | null;
}

const CONNECT_TIMEOUT_MS = 1_000;
const PROBE_TIMEOUT_MS = 3_000;
const CONCURRENCY = 64;
const SCAN_BUDGET_MS = 60_000;

/** Every address of an IPv4 CIDR (/22 to /32), network and broadcast addresses left out where they exist. */
export function expandCidr(cidr: string): string[] {
  const [ip, bitsText] = cidr.split('/') as [string, string];
  const bits = Number(bitsText);
  const parts = ip.split('.').map(Number);
  if (parts.some((p) => p > 255) || bits < 22 || bits > 32) {
    throw new AppError('bad_request', `subnet ${cidr} is not an IPv4 CIDR from /22 to /32.`);
  }
  const base = ((parts[0]! << 24) | (parts[1]! << 16) | (parts[2]! << 8) | parts[3]!) >>> 0;
  const size = 2 ** (32 - bits);
  const start = (base & ~(size - 1)) >>> 0;
  const out: string[] = [];
  for (let i = 0; i < size; i++) {
    if (size > 2 && (i === 0 || i === size - 1)) continue;
    const n = (start + i) >>> 0;
    out.push([n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.'));
  }
  return out;
}

function portOpen(host: string, port: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port, timeout: CONNECT_TIMEOUT_MS, signal });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.once('connect', () => done(true));
    socket.once('timeout', () => done(false));
    socket.once('error', () => done(false));
  });
}

/** Status of an unauthenticated GET: these APIs answer 401 on paths they have and 404/501 on others. */
async function status(dispatcher: Agent, url: string): Promise<{ code: number; body: string } | undefined> {
  try {
    const r = await undici().request(url, { dispatcher, signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
    const body = await r.body.text();
    return { code: r.statusCode, body };
  } catch {
    return undefined;
  }
}

/**
 * Which API answers at host:port. Without credentials these APIs answer 401 on every API path, so the
 * product is told by the web UI's start page title; the version only when /version answers without login.
 */
async function identify(dispatcher: Agent, host: string, port: number): Promise<Discovered | undefined> {
  for (const scheme of ['https', 'http']) {
    const base = `${scheme}://${host}:${port}`;
    const version = await status(dispatcher, `${base}/api2/json/version`);
    if (!version || (version.code !== 200 && version.code !== 401)) continue;
    const page = (await status(dispatcher, `${base}/`))?.body ?? '';
    const type: Discovered['type'] = /Mail Gateway/i.test(page)
      ? 'mail'
      : /Backup Server/i.test(page) || (!/Virtual Environment/i.test(page) && port === 8007)
        ? 'bak'
        : 'hv';
    let v: string | null = null;
    if (version.code === 200) {
      try {
        v = (JSON.parse(version.body) as { data?: { version?: string } }).data?.version ?? null;
      } catch {
        v = null;
      }
    }
    return { host, port, url: base, type, version: v };
  }
  return undefined;
}

/** Scans subnet × ports with bounded concurrency and a total time budget; what did not answer is left out. */
export async function discover(subnet: string, ports: number[], signal?: AbortSignal) {
  const started = Date.now();
  const targets = expandCidr(subnet).flatMap((host) => ports.map((port) => ({ host, port })));
  const budget = AbortSignal.any([AbortSignal.timeout(SCAN_BUDGET_MS), ...(signal ? [signal] : [])]);
  const dispatcher = new (undici().Agent)({ connect: { rejectUnauthorized: false } });
  const found: Discovered[] = [];
  let next = 0;
  const worker = async () => {
    while (next < targets.length && !budget.aborted) {
      const t = targets[next++]!;
      if (!(await portOpen(t.host, t.port, budget))) continue;
      const hit = await identify(dispatcher, t.host, t.port);
      if (hit) found.push(hit);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, targets.length) }, worker));
  } finally {
    await dispatcher.close();
  }
  found.sort((a, b) => a.host.localeCompare(b.host, 'en', { numeric: true }) || a.port - b.port);
  return { subnet, scanned: targets.length, durationMs: Date.now() - started, found };
}
