import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpSender } from './notifications.http.js';
import { createTargetGuard } from './notifications.ssrf.js';

let server: Server | undefined;
afterEach(async () => {
  const s = server;
  server = undefined;
  if (!s) return;
  s.closeAllConnections();
  await new Promise((r) => s.close(r));
});

/** A receiver on 127.0.0.1; `arrived(n)` resolves once n requests have come in. */
async function receiver(answer: (req: IncomingMessage, res: import('node:http').ServerResponse) => void) {
  let seen = 0;
  const waiting: Array<{ n: number; resolve: () => void }> = [];
  server = createServer((req, res) => {
    seen++;
    for (const w of waiting.filter((x) => seen >= x.n)) w.resolve();
    answer(req, res);
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  const arrived = (n: number) => new Promise<void>((resolve) => (seen >= n ? resolve() : waiting.push({ n, resolve })));
  return { url: (path: string) => `http://127.0.0.1:${port}${path}`, arrived };
}

const sender = () => createHttpSender(createTargetGuard(['127.0.0.1/32']), { timeoutMs: 30_000, now: () => 0 });
const post = (url: string) => ({
  url,
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: '{}',
  eventId: 'e1',
});

describe('http sender', () => {
  it('reports status, Retry-After and a body capped at 4 KiB', async () => {
    const rx = await receiver((req, res) => {
      if (req.url === '/busy') res.writeHead(429, { 'retry-after': '7' }).end('slow down');
      else res.writeHead(500).end('x'.repeat(10_000));
    });
    const http = sender();
    try {
      const busy = await http.send(post(rx.url('/busy')));
      expect(busy).toMatchObject({ status: 429, body: 'slow down', retryAfterMs: 7000, network: false });
      const big = await http.send(post(rx.url('/big')));
      expect(big.status).toBe(500);
      expect(big.body).toHaveLength(4096);
    } finally {
      await http.close();
    }
  });

  it('one abort signal ends every request in flight with it, and requests made after it at once', async () => {
    const rx = await receiver(() => {}); // never answers
    const http = sender();
    try {
      const ac = new AbortController();
      const pending = Array.from({ length: 5 }, () => http.send(post(rx.url('/hang')), ac.signal));
      await rx.arrived(5);
      ac.abort();
      for (const r of await Promise.all(pending))
        expect(r).toMatchObject({ status: 0, error: expect.stringMatching(/abort/i) });
      expect(await http.send(post(rx.url('/hang')), ac.signal)).toMatchObject({
        status: 0,
        error: expect.stringMatching(/abort/i),
      });
    } finally {
      await http.close();
    }
  });

  it('refuses a literal address outside the allowed ranges without connecting', async () => {
    const http = createHttpSender(createTargetGuard([]), { timeoutMs: 1000, now: () => 0 });
    const r = await http.send(post('http://127.0.0.1:9/x'));
    expect(r).toMatchObject({ status: 0, refused: true, network: false });
    await http.close();
  });
});
