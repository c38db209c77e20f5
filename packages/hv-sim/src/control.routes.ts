import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FaultSpec } from './faults.js';
import { readBody } from './sim.request.js';
import { sendJson } from './sim.respond.js';
import type { SimCore } from './sim.server.js';
import type { GuestType } from './types.js';
import { SimError } from './types.js';

type Body = Record<string, unknown>;

/** `/_sim/...`: JSON in, JSON out, no auth; answers even on an offline member so tests can revive it. */
export async function handleControl(core: SimCore, req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  try {
    const text = req.method === 'GET' || req.method === 'DELETE' ? '' : await readBody(req);
    const body = (text ? JSON.parse(text) : {}) as Body;
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      throw new SimError(400, 'body must be a JSON object');
    const out = route(core, req.method ?? 'GET', url.pathname.slice('/_sim'.length).split('/').filter(Boolean), body);
    sendJson(res, 200, out ?? { ok: true });
  } catch (err) {
    const status = err instanceof SimError ? err.status : err instanceof SyntaxError ? 400 : 400;
    sendJson(res, status, { error: err instanceof Error ? err.message : String(err) });
  }
}

function route(core: SimCore, method: string, p: string[], body: Body): unknown {
  const c = core.control;
  const [a, b, d] = p;
  const key = `${method} ${a ?? ''}${b !== undefined ? '/:' : ''}${d !== undefined ? `/${d}` : ''}`;
  switch (key) {
    case 'GET ':
    case 'GET state':
      return c.summary();
    case 'POST nodes/:':
      return c.setNode(b!, body);
    case 'POST nodes/:/offline':
      return c.setNodeOnline(b!, false);
    case 'POST nodes/:/online':
      return c.setNodeOnline(b!, true);
    case 'POST guests':
      return c.addGuest(newGuest(body));
    case 'POST guests/:':
      return c.setGuest(vmid(b), body);
    case 'POST guests/:/start':
      return c.startGuest(vmid(b));
    case 'POST guests/:/stop':
      return c.stopGuest(vmid(b));
    case 'DELETE guests/:':
      return c.removeGuest(vmid(b));
    case 'GET faults':
      return { faults: c.faults() };
    case 'POST faults':
      return addFault(core, body);
    case 'DELETE faults':
      return c.clearFaults();
    case 'DELETE faults/:':
      if (!c.removeFault(Number(b))) throw new SimError(404, `no fault ${b}`);
      return;
    case 'POST auth/expire':
      return c.expireTickets();
    case 'POST auth':
      return c.setTicketLifetime(positive(body.ticketLifetimeSec, 'ticketLifetimeSec'));
    case 'POST clock':
      return c.advanceClock(positive(body.advanceMs, 'advanceMs'));
  }
  throw new SimError(404, `unknown control route ${method} /_sim/${p.join('/')}`);
}

function addFault(core: SimCore, body: Body): unknown {
  try {
    return { fault: core.control.addFault(body as unknown as FaultSpec) };
  } catch (err) {
    throw new SimError(400, err instanceof Error ? err.message : String(err));
  }
}

function vmid(s: string | undefined): number {
  const n = Number(s);
  if (!Number.isInteger(n) || n < 100) throw new SimError(400, `invalid vmid '${s}'`);
  return n;
}

function positive(v: unknown, name: string): number {
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) throw new SimError(400, `${name} must be a number >= 0`);
  return v;
}

function newGuest(body: Body) {
  if (typeof body.node !== 'string') throw new SimError(400, 'node is required');
  const type = body.type === undefined ? 'qemu' : body.type;
  if (type !== 'qemu' && type !== 'lxc') throw new SimError(400, "type must be 'qemu' or 'lxc'");
  return {
    node: body.node,
    type: type as GuestType,
    vmid: body.vmid === undefined ? undefined : vmid(String(body.vmid)),
    name: typeof body.name === 'string' ? body.name : undefined,
    maxmem: typeof body.maxmem === 'number' ? body.maxmem : undefined,
    maxdisk: typeof body.maxdisk === 'number' ? body.maxdisk : undefined,
    cpus: typeof body.cpus === 'number' ? body.cpus : undefined,
    agent: typeof body.agent === 'boolean' ? body.agent : undefined,
    running: typeof body.running === 'boolean' ? body.running : undefined,
  };
}
