import type { ServerResponse } from 'node:http';
import type { Kind } from './types.js';

const JSON_TYPE = 'application/json;charset=UTF-8';

/** Headers the real API daemons send on every JSON answer. */
function baseHeaders(kind: Kind, length: number): Record<string, string | number> {
  return {
    'Content-Type': JSON_TYPE,
    'Content-Length': length,
    'Cache-Control': 'max-age=0',
    Pragma: 'no-cache',
    Server: kind === 'bak' ? 'proxmox-backup-api' : kind === 'mail' ? 'pmg-api-daemon/3.0' : 'pve-api-daemon/3.0',
  };
}

export function sendBody(res: ServerResponse, kind: Kind, status: number, body: string, reason?: string): void {
  const buf = Buffer.from(body);
  res.writeHead(status, safeReason(reason), baseHeaders(kind, buf.length));
  res.end(buf);
}

/** The HTTP reason phrase cannot carry control characters; the real servers put the message there. */
function safeReason(reason: string | undefined): string | undefined {
  if (!reason) return undefined;
  return reason.replace(/[^\x20-\x7e]+/g, ' ').trim() || undefined;
}

export interface Answer {
  status: number;
  text: string;
  reason?: string;
}

/**
 * Errors as each product formats them: hv/mail (pve-http-server) put the message in the status line and
 * send `{"data":null,...}`; bak (proxmox-rest-server) sends the plain message text as the body.
 */
export function formatError(kind: Kind, status: number, message: string, errors?: Record<string, string>): Answer {
  if (kind === 'bak') {
    const lines = errors ? Object.entries(errors).map(([k, v]) => `parameter '${k}': ${v}`) : [];
    return { status, text: lines.length ? `${message}\n\n${lines.join('\n')}` : message, reason: message };
  }
  const body: Record<string, unknown> = { data: null };
  if (errors) body.errors = errors;
  body.message = `${message}\n`;
  return { status, text: JSON.stringify(body), reason: message };
}

export function sendError(
  res: ServerResponse,
  kind: Kind,
  status: number,
  message: string,
  errors?: Record<string, string>,
): void {
  const a = formatError(kind, status, message, errors);
  sendBody(res, kind, a.status, a.text, a.reason);
}

/** Writes the headers and half of the body, then cuts the connection: a truncated response. */
export function sendTruncated(res: ServerResponse, kind: Kind, body: string): void {
  const buf = Buffer.from(body);
  res.writeHead(200, baseHeaders(kind, buf.length));
  res.write(buf.subarray(0, Math.max(1, Math.floor(buf.length / 2))), () => res.socket?.destroy());
}

/** A 200 whose body is not JSON: the start of the real answer with the rest garbled. */
export function sendMalformed(res: ServerResponse, kind: Kind, body: string): void {
  const cut = body.slice(0, Math.max(8, Math.floor(body.length / 3)));
  sendBody(res, kind, 200, `${cut}<<garbled>>{"data":`);
}

export function sendJson(res: ServerResponse, status: number, value: unknown): void {
  const buf = Buffer.from(JSON.stringify(value));
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': buf.length });
  res.end(buf);
}
