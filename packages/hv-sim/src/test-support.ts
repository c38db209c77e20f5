// Shared helpers for the simulator's own tests (not exported from the package).
import { type Simulator, startSimulator } from './index.js';
import type { Kind, SimulatorOptions } from './types.js';

export const T0 = Date.UTC(2026, 0, 15, 12, 0, 0);

export const TOKENS = {
  hv: { tokenId: 'svc@pve!mon', secret: 'b1c2d3e4-0000-4000-8000-000000000001' },
  bak: { tokenId: 'svc@pbs!mon', secret: 'b1c2d3e4-0000-4000-8000-000000000002' },
};

export const USERS = {
  hv: { username: 'svc@pve', password: 'hv-pass' },
  bak: { username: 'svc@pbs', password: 'bak-pass' },
  mail: { username: 'svc@pmg', password: 'mail-pass' },
};

/** A fake clock the test moves by hand. */
export function fakeClock(start = T0) {
  let now = start;
  return {
    now: () => now,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

export async function sim(kind: Kind, extra: Partial<SimulatorOptions> = {}): Promise<Simulator> {
  return startSimulator({
    kind,
    nodes: 2,
    guestsPerNode: 4,
    seed: 'test',
    clock: () => T0,
    tokens: kind === 'mail' ? [] : [TOKENS[kind]],
    users: [USERS[kind]],
    ...extra,
  });
}

export function tokenHeader(kind: 'hv' | 'bak'): Record<string, string> {
  const t = TOKENS[kind];
  return kind === 'hv'
    ? { Authorization: `PVEAPIToken=${t.tokenId}=${t.secret}` }
    : { Authorization: `PBSAPIToken=${t.tokenId}:${t.secret}` };
}

const COOKIE = { hv: 'PVEAuthCookie', bak: 'PBSAuthCookie', mail: 'PMGAuthCookie' };

/** Logs in with the password and returns headers carrying the ticket cookie and the CSRF token. */
export async function ticketHeaders(s: Simulator, kind: Kind): Promise<Record<string, string>> {
  const u = USERS[kind];
  const r = await fetch(`${s.url}/api2/json/access/ticket`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username: u.username, password: u.password }),
  });
  if (r.status !== 200) throw new Error(`login failed: ${r.status}`);
  const { data } = (await r.json()) as { data: { ticket: string; CSRFPreventionToken: string } };
  return {
    Cookie: `${COOKIE[kind]}=${encodeURIComponent(data.ticket)}`,
    CSRFPreventionToken: data.CSRFPreventionToken,
  };
}

export async function authHeaders(s: Simulator, kind: Kind): Promise<Record<string, string>> {
  return kind === 'mail' ? ticketHeaders(s, kind) : tokenHeader(kind);
}

export async function getJson(url: string, headers: Record<string, string>) {
  const r = await fetch(url, { headers });
  const text = await r.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return {
    status: r.status,
    statusText: r.statusText,
    headers: r.headers,
    text,
    body: body as { data?: unknown; [k: string]: unknown },
  };
}
