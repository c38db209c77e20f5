import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import WebSocket from 'ws';
import type { Envelope } from './realtime.messages.js';

/** A /ws client that queues every message, so tests await the next one instead of sleeping. */
export class TestClient {
  private readonly queue: Envelope[] = [];
  private waiter: ((m: Envelope) => void) | undefined;
  readonly sizes: number[] = [];

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (raw: Buffer) => {
      this.sizes.push(raw.length);
      const m = JSON.parse(raw.toString()) as Envelope;
      if (this.waiter) {
        const w = this.waiter;
        this.waiter = undefined;
        w(m);
      } else this.queue.push(m);
    });
  }

  static open(url: string, headers: Record<string, string> = {}): Promise<TestClient> {
    const ws = new WebSocket(url, { headers });
    const c = new TestClient(ws);
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(c));
      ws.once('error', reject);
    });
  }

  next(): Promise<Envelope> {
    const m = this.queue.shift();
    if (m) return Promise.resolve(m);
    return new Promise((resolve) => {
      this.waiter = resolve;
    });
  }

  /** Messages already received and not yet read. */
  get pending(): number {
    return this.queue.length;
  }

  close(): void {
    this.ws.close();
  }
}

/** A WebSocket upgrade that is refused: the status and JSON body the server answered before switching. */
export function refusedUpgrade(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: { error?: string } }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    ws.once('open', () => reject(new Error('upgrade was accepted')));
    ws.once('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (c: Buffer) => {
        body += c.toString();
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(body || '{}') }));
    });
    ws.once('error', () => undefined);
  });
}

/** A plain GET (no upgrade) to a path on the listening app. */
export function plainGet(base: string, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * A WebSocket client that completes the handshake and then stops reading: the server's send buffer for it
 * can only grow, which is what a stalled browser tab or a congested link looks like.
 */
export function stalledClient(port: number, headers: Record<string, string>): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const sock = connect(port, '127.0.0.1', () => {
      const lines = [
        'GET /ws HTTP/1.1',
        `Host: 127.0.0.1:${port}`,
        'Upgrade: websocket',
        'Connection: Upgrade',
        `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}`,
        'Sec-WebSocket-Version: 13',
        ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
      ];
      sock.write(`${lines.join('\r\n')}\r\n\r\n`);
    });
    sock.once('data', (chunk: Buffer) => {
      if (!chunk.toString().startsWith('HTTP/1.1 101')) reject(new Error(chunk.toString()));
      sock.pause();
      resolve(sock);
    });
    sock.once('error', reject);
  });
}
