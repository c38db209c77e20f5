import type { TLSSocket } from 'node:tls';
import { Agent, buildConnector, fetch as ufetch } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import type { Simulator } from './index.js';
import { sim, tokenHeader } from './test-support.js';

let s: Simulator | undefined;
afterEach(async () => {
  await s?.close();
  s = undefined;
});

/** An agent that skips CA verification but records the peer certificate, as a pinning client would. */
function recordingAgent(seen: string[]): Agent {
  const base = buildConnector({ rejectUnauthorized: false });
  return new Agent({
    connect: (opts, cb) =>
      base(opts, (err, socket) => {
        if (socket) seen.push((socket as TLSSocket).getPeerCertificate().fingerprint256);
        if (err) cb(err, null);
        else cb(null, socket!);
      }),
  });
}

describe('TLS', () => {
  it('serves HTTPS with a self-signed certificate whose SHA-256 fingerprint it reports', async () => {
    s = await sim('hv', { tls: true, cluster: 'demo', nodes: 2 });
    expect(s.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(s.fingerprint).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
    const seen: string[] = [];
    const dispatcher = recordingAgent(seen);
    for (const m of s.urls) {
      const r = await ufetch(`${m.url}/api2/json/version`, { headers: tokenHeader('hv'), dispatcher });
      expect(r.status).toBe(200);
    }
    expect(seen.length).toBeGreaterThan(0);
    expect(new Set(seen)).toEqual(new Set([s.fingerprint]));
    // The node list advertises the same fingerprint, as the real ssl_fingerprint field does.
    const nodes = (await (
      await ufetch(`${s.url}/api2/json/nodes`, { headers: tokenHeader('hv'), dispatcher })
    ).json()) as {
      data: Array<{ ssl_fingerprint: string }>;
    };
    expect(nodes.data[0]!.ssl_fingerprint).toBe(s.fingerprint);
    await dispatcher.close();
  });

  it('is refused by a verifying client (self-signed)', async () => {
    s = await sim('bak', { tls: true });
    const dispatcher = new Agent({ connect: { rejectUnauthorized: true } });
    await expect(ufetch(`${s.url}/api2/json/version`, { headers: tokenHeader('bak'), dispatcher })).rejects.toThrow();
    await dispatcher.close();
  });

  it('generates a different certificate per start', async () => {
    s = await sim('mail', { tls: true });
    const other = await sim('mail', { tls: true });
    expect(other.fingerprint).not.toBe(s.fingerprint);
    await other.close();
  });
});
