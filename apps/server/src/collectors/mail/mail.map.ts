import { num, obj, objects, optNum, optStr, str } from '../map.coerce.js';
import type { MailBackup, MailInstanceRecord, MailNode, MailQueueStatus, MailStats } from '../model.js';

export interface MailContext {
  instance: string;
  name: string;
  host: string;
  at: number;
}

export const MAIL_QUEUES = ['active', 'deferred', 'hold', 'incoming'] as const;
export type MailQueue = (typeof MAIL_QUEUES)[number];

/** GET /nodes (untyped items; real ones carry `node`). */
export const mapMailNodeNames = (data: unknown): string[] =>
  objects(data)
    .map((n) => str(n.node))
    .filter(Boolean);

/** GET /config/cluster/status?list_single_node=1: role `master` or `node` per member. */
export function mapMailCluster(data: unknown): Array<{ name: string; role: string; ip?: string }> {
  return objects(data)
    .filter((m) => typeof m.name === 'string')
    .map((m) => {
      const ip = optStr(m.ip);
      const entry = { name: str(m.name), role: str(m.type, 'node') };
      return ip ? { ...entry, ip } : entry;
    });
}

/** GET /nodes/{node}/status (most fields are outside the schema but always sent). */
export function mapMailNodeStatus(name: string, role: string | undefined, data: unknown): MailNode {
  const s = obj(data);
  const node: MailNode = { name, status: data === undefined ? 'unknown' : 'online' };
  if (role) node.role = role;
  const uptime = optNum(s.uptime);
  if (uptime !== undefined) node.uptime = uptime;
  if (Array.isArray(s.loadavg)) node.loadAvg = s.loadavg.map((l) => str(l)).join(', ');
  return node;
}

/** GET /statistics/mail: counters over the window (default last 24 h); avptime is seconds. */
export function mapMailStats(data: unknown, at: number): MailStats {
  const s = obj(data);
  return {
    countTotal: num(s.count),
    countIn: num(s.count_in),
    countOut: num(s.count_out),
    spamIn: num(s.spamcount_in),
    spamOut: num(s.spamcount_out),
    virusIn: num(s.viruscount_in),
    virusOut: num(s.viruscount_out),
    bouncesIn: num(s.bounces_in),
    bouncesOut: num(s.bounces_out),
    bytesIn: num(s.bytes_in),
    bytesOut: num(s.bytes_out),
    greylistCount: num(s.glcount),
    junkIn: num(s.junk_in),
    averageProcessTimeMs: Math.round(num(s.avptime) * 1000),
    rblRejects: num(s.rbl_rejects),
    pregreetRejects: num(s.pregreet_rejects),
    updatedAt: at,
  };
}

const ageBuckets: Array<[string, number]> = [
  ['1280m+', 1280],
  ['1280m', 640],
  ['640m', 320],
  ['320m', 160],
  ['160m', 80],
  ['80m', 40],
  ['40m', 20],
  ['20m', 10],
  ['10m', 5],
  ['5m', 0],
];

/** GET /nodes/{node}/postfix/qshape?queue=X: the first row is the TOTAL line; returns count and oldest age (s). */
export function mapQshape(data: unknown): { total: number; oldestAge: number } {
  const rows = objects(data);
  const totalRow = rows.find((r) => str(r.domain).toUpperCase() === 'TOTAL') ?? rows[0];
  if (!totalRow) return { total: 0, oldestAge: 0 };
  const bucket = ageBuckets.find(([key]) => num(totalRow[key]) > 0);
  return { total: num(totalRow.total), oldestAge: bucket ? bucket[1] * 60 : 0 };
}

export function buildQueueStatus(shapes: Partial<Record<MailQueue, unknown>>, at: number): MailQueueStatus {
  const q = Object.fromEntries(MAIL_QUEUES.map((name) => [name, mapQshape(shapes[name])])) as Record<
    MailQueue,
    { total: number; oldestAge: number }
  >;
  return {
    active: q.active.total,
    deferred: q.deferred.total,
    hold: q.hold.total,
    incoming: q.incoming.total,
    total: MAIL_QUEUES.reduce((a, name) => a + q[name].total, 0),
    oldestAge: Math.max(...MAIL_QUEUES.map((name) => q[name].oldestAge)),
    updatedAt: at,
  };
}

/** GET /nodes/{node}/backup: local `pmg-backup_*.tgz` files. */
export function mapMailBackups(ctx: MailContext, node: string, data: unknown): MailBackup[] {
  return objects(data)
    .filter((b) => typeof b.filename === 'string')
    .map((b) => ({
      id: `${ctx.instance}-${node}-${str(b.filename)}`,
      instance: ctx.instance,
      node,
      filename: str(b.filename),
      backupTime: num(b.timestamp) * 1000,
      size: num(b.size),
    }));
}

/** GET /quarantine/{spam,virus}status: `count` items in quarantine. */
export const mapQuarantineCount = (data: unknown): number => num(obj(data).count);

export function mapMailInstance(
  ctx: MailContext,
  version: unknown,
  nodes: MailNode[],
  stats: MailStats | undefined,
  quarantine: { spam: number; virus: number } | undefined,
): MailInstanceRecord {
  const v = obj(version);
  const rec: MailInstanceRecord = {
    id: ctx.instance,
    name: ctx.name,
    host: ctx.host,
    status: nodes.some((n) => n.status !== 'online') ? 'warning' : 'online',
    version: [str(v.version), optStr(v.release)].filter(Boolean).join('-'),
    nodes,
    connectionHealth: 'healthy',
    lastSeen: ctx.at,
  };
  if (stats) rec.mailStats = stats;
  if (quarantine) rec.quarantine = { ...quarantine, attachment: 0, blacklisted: 0 };
  return rec;
}
