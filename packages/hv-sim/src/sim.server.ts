import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Control } from './control.js';
import { handleControl } from './control.routes.js';
import type { Faults } from './faults.js';
import { type RouteTable, splitPath } from './route-match.js';
import type { Ctx, Handler, Params } from './routes.common.js';
import { Enveloped } from './routes.common.js';
import { validateRequest } from './schema-validate.js';
import type { Auth } from './sim.auth.js';
import { bodyParams, queryParams, readBody } from './sim.request.js';
import { type Answer, formatError, sendBody, sendError, sendMalformed, sendTruncated } from './sim.respond.js';
import type { Kind } from './types.js';
import { SimError } from './types.js';
import type { World } from './world.js';

export interface SimCore {
  kind: Kind;
  world: World;
  auth: Auth;
  faults: Faults;
  routes: RouteTable<Handler>;
  strict: boolean;
  fingerprint: string;
  delay: (ms: number) => Promise<void>;
  control: Control;
  /** Requests held open by the timeout fault; closed with the simulator. */
  held: Set<ServerResponse>;
}

const METHODS = ['GET', 'POST', 'PUT', 'DELETE'];

/** One listener's request handler; `member` is the node this listener speaks for. */
export function makeHandler(core: SimCore, member: string) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    handle(core, member, req, res).catch((err: unknown) => {
      if (!res.headersSent) sendError(res, core.kind, 500, err instanceof Error ? err.message : String(err));
    });
  };
}

async function handle(core: SimCore, member: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://sim');
  if (url.pathname.startsWith('/_sim/')) return handleControl(core, req, res, url);
  const node = core.world.nodeByName.get(member);
  // An offline member stops answering at all: the client sees a dropped connection, as with a dead host.
  if (node && !node.online) return void req.socket.destroy();
  const method = (req.method ?? 'GET').toUpperCase();
  if (method === 'GET' && url.pathname === '/') return sendUiPage(core, res);
  if (!url.pathname.startsWith('/api2/json/')) return notFound(core, res, method, url.pathname);
  const rel = url.pathname.slice('/api2/json'.length);
  const plan = core.faults.plan(member, method, rel);
  if (plan.delayMs > 0) await core.delay(plan.delayMs);
  if (plan.expireAuth) core.auth.generation++;
  const f = plan.terminal;
  if (f?.kind === 'timeout') {
    core.held.add(res);
    // A client that gives up frees its slot; the rest are cut when the simulator closes.
    res.on('close', () => core.held.delete(res));
    return;
  }
  if (f?.kind === 'error') return sendError(res, core.kind, f.status ?? 500, f.message ?? 'simulated server error');
  if (f?.kind === 'rate-limit') {
    res.setHeader('Retry-After', String(f.retryAfter ?? 1));
    return sendError(res, core.kind, 429, f.message ?? 'Too Many Requests');
  }
  const body = await answer(core, member, method, rel, url, req);
  if (body.status !== 200 || !f) return sendBody(res, core.kind, body.status, body.text, body.reason);
  if (f.kind === 'truncate') return sendTruncated(res, core.kind, body.text);
  return sendMalformed(res, core.kind, body.text);
}

/** Runs auth, parameter verification and the handler; returns the serialized answer. */
async function answer(
  core: SimCore,
  member: string,
  method: string,
  rel: string,
  url: URL,
  req: IncomingMessage,
): Promise<Answer> {
  try {
    const params: Params = { ...queryParams(url.searchParams) };
    if (method !== 'GET') Object.assign(params, bodyParams(req.headers['content-type'], await readBody(req)));
    const isLogin = method === 'POST' && rel === '/access/ticket';
    const user = isLogin ? '' : core.auth.check(method, req.headers).user;
    const parts = splitPath(rel);
    const hit = core.routes.find(method, parts);
    if (!hit) throw unknownPath(core.kind, method, rel, core.routes.hasPath(parts, METHODS));
    if (core.strict) {
      const check = validateRequest(core.kind, method, rel, params);
      if (!check.ok && check.status === 400) throw new SimError(400, check.message, check.errors);
    }
    const c: Ctx = {
      kind: core.kind,
      world: core.world,
      auth: core.auth,
      local: member,
      nowSec: core.world.nowSec(),
      params: { ...params, ...hit.params },
      user,
      fingerprint: core.fingerprint,
    };
    const result = hit.value(c);
    const env = result instanceof Enveloped ? { data: result.data, ...result.extra } : { data: result ?? null };
    return { status: 200, text: JSON.stringify(env) };
  } catch (err) {
    if (!(err instanceof SimError)) throw err;
    return formatError(core.kind, err.status, err.message, err.errors);
  }
}

function unknownPath(kind: Kind, method: string, rel: string, otherMethod: boolean): SimError {
  if (kind === 'bak')
    return new SimError(
      otherMethod ? 405 : 404,
      otherMethod ? `Method not allowed` : `Path '/api2/json${rel}' not found.`,
    );
  return new SimError(501, `Method '${method} ${rel}' not implemented`);
}

function notFound(core: SimCore, res: ServerResponse, method: string, path: string): void {
  if (core.kind === 'bak') sendError(res, core.kind, 404, `Path '${path}' not found.`);
  else sendError(res, core.kind, 501, `Method '${method} ${path}' not implemented`);
}

const productTitles = { hv: 'Proxmox Virtual Environment', bak: 'Proxmox Backup Server', mail: 'Proxmox Mail Gateway' };

/** The web UI's start page, as the real servers send it without login: its title names the product. */
function sendUiPage(core: SimCore, res: ServerResponse): void {
  const title = productTitles[core.kind];
  const body = `<!DOCTYPE html>\n<html>\n<head>\n<meta charset="UTF-8">\n<title>${title}</title>\n</head>\n<body></body>\n</html>\n`;
  res.writeHead(200, { 'content-type': 'text/html;charset=UTF-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}
