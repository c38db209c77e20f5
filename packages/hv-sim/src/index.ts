import { createHash } from 'node:crypto';
import { createServer as createHttp, type Server } from 'node:http';
import { createServer as createHttps } from 'node:https';
import type { AddressInfo } from 'node:net';
import { bakRoutes } from './bak.routes.js';
import { type Control, makeControl } from './control.js';
import { Faults } from './faults.js';
import { hvAgentRoutes } from './hv.agent.routes.js';
import { hvGuestRoutes } from './hv.guest.routes.js';
import { hvNodeRoutes } from './hv.node.routes.js';
import { hvCoreRoutes } from './hv.routes.js';
import { mailRoutes } from './mail.routes.js';
import { RouteTable } from './route-match.js';
import type { Handler, RouteDef } from './routes.common.js';
import { Auth } from './sim.auth.js';
import { makeHandler, type SimCore } from './sim.server.js';
import { makeCertificate, type TlsMaterial } from './sim.tls.js';
import type { Kind, SimulatorOptions } from './types.js';
import { World } from './world.js';

export type { Control } from './control.js';
export type { FaultKind, FaultSpec } from './faults.js';
export { FAULT_KINDS } from './faults.js';
// The generator itself, for in-process use without HTTP (svc's mock mode).
export { type GuestNow, guestNow, type NodeNow, nodeNow } from './metrics.js';
export { KNOWN_DEVIATIONS, validateRequest, validateReturns } from './schema-validate.js';
export { schemaFor } from './schemas.js';
export { parseTokenSpec } from './sim.auth.js';
export * from './types.js';
export { World } from './world.js';

const ROUTES: Record<Kind, RouteDef[]> = {
  hv: [...hvCoreRoutes, ...hvNodeRoutes, ...hvGuestRoutes, ...hvAgentRoutes],
  bak: bakRoutes,
  mail: mailRoutes,
};

export const DEFAULT_PORTS: Record<Kind, number> = { hv: 8006, bak: 8007, mail: 8006 };

export interface Simulator {
  /** Base URL of the first member, e.g. `https://127.0.0.1:8006` (the API lives under /api2/json). */
  url: string;
  /** One URL per cluster member (hv with a cluster), else `[url]`. */
  urls: Array<{ node: string; url: string }>;
  /** SHA-256 certificate fingerprint with --tls, else undefined. */
  fingerprint: string | undefined;
  state: World;
  control: Control;
  close(): Promise<void>;
}

function buildRoutes(kind: Kind): RouteTable<Handler> {
  const t = new RouteTable<Handler>();
  for (const [m, path, h] of ROUTES[kind]) t.add(m, path, h);
  return t;
}

/** Starts the simulator: one listener, or one per member when hv nodes form a cluster. */
export async function startSimulator(opts: SimulatorOptions): Promise<Simulator> {
  const kind = opts.kind;
  const clock = opts.clock ?? Date.now;
  const world = new World({
    kind,
    nodes: Math.max(1, opts.nodes ?? 1),
    guestsPerNode: Math.max(0, opts.guestsPerNode ?? (kind === 'mail' ? 5 : 10)),
    seed: opts.seed ?? 1,
    cluster: kind === 'hv' ? opts.cluster : undefined,
    clock,
  });
  const auth = new Auth(kind, world.seed, [...(opts.tokens ?? [])], [...(opts.users ?? [])], () => world.nowSec());
  const faults = new Faults();
  const tls = opts.tls ? await makeCertificate(opts.host ?? '127.0.0.1') : undefined;
  const core: SimCore = {
    kind,
    world,
    auth,
    faults,
    routes: buildRoutes(kind),
    strict: opts.strict ?? true,
    fingerprint: tls?.fingerprint ?? pseudoFingerprint(world.seed),
    delay: opts.delay ?? ((ms) => new Promise((r) => setTimeout(r, ms))),
    control: makeControl(world, auth, faults),
    held: new Set(),
  };
  const members = kind === 'hv' && world.cluster ? world.nodes.map((n) => n.name) : [world.nodes[0]!.name];
  const servers: Server[] = [];
  const urls: Array<{ node: string; url: string }> = [];
  const host = opts.host ?? '127.0.0.1';
  // On loopback, cluster members get their own addresses (127.0.0.1, .2, ...) on one port, as real members
  // do, and /cluster/status reports those addresses: a client following it stays on this machine.
  const perMemberIp = members.length > 1 && host === '127.0.0.1';
  try {
    for (const [i, member] of members.entries()) {
      const memberHost = perMemberIp ? `127.0.${(i + 1) >> 8}.${(i + 1) & 255}` : host;
      const firstPort = servers[0] ? (servers[0].address() as AddressInfo).port : 0;
      const port = perMemberIp ? (i === 0 ? (opts.port ?? 0) : firstPort) : opts.port ? opts.port + i : 0;
      const { server, url } = await listen(core, member, tls, memberHost, port);
      if (perMemberIp) world.node(member).ip = memberHost;
      servers.push(server);
      urls.push({ node: member, url });
    }
  } catch (err) {
    await closeAll(core, servers);
    throw err;
  }
  const fingerprint = tls?.fingerprint;
  return {
    url: urls[0]!.url,
    urls,
    fingerprint,
    state: world,
    control: core.control,
    close: () => closeAll(core, servers),
  };
}

async function listen(core: SimCore, member: string, tls: TlsMaterial | undefined, host: string, port: number) {
  const handler = makeHandler(core, member);
  const server: Server = tls ? createHttps({ key: tls.key, cert: tls.cert }, handler) : createHttp(handler);
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const addr = server.address() as AddressInfo;
  const h = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  return { server, url: `${tls ? 'https' : 'http'}://${h}:${addr.port}` };
}

async function closeAll(core: SimCore, servers: Server[]): Promise<void> {
  for (const res of core.held) res.socket?.destroy();
  core.held.clear();
  await Promise.all(
    servers.map(
      (s) =>
        new Promise<void>((resolve) => {
          s.close(() => resolve());
          s.closeAllConnections();
        }),
    ),
  );
}

/** Without TLS, nodes still advertise a stable fingerprint-shaped value (ssl_fingerprint, info.fingerprint). */
function pseudoFingerprint(seed: number): string {
  const hex = createHash('sha256').update(`svc-hv-sim-${seed}`).digest('hex').toUpperCase();
  return hex.match(/../g)!.join(':');
}
