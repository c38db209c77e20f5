import { gcStatus, verifyUpid } from './bak.store.js';
import { hash32 } from './noise.js';
import { backupDuration, backupTimes, type Ctx, hex8, int, page, type RouteDef, str } from './routes.common.js';

/** A PBS UPID: node, pid, pstart, task id, start time, worker type, worker id (':' escaped), auth id. */
function upid(t: number, n: number, type: string, wid: string): string {
  return `UPID:localhost:${hex8(2000 + n)}:${hex8(1000000 + (t % 1000000))}:${hex8(n)}:${hex8(t)}:${type}:${wid.replaceAll(':', '\\x3a')}:root@pam:`;
}

function allTasks(c: Ctx): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  let n = 0;
  for (const s of c.world.nodes) {
    for (const g of c.world.guestsOf(s.name)) {
      const gid = `${s.name}:${g.type === 'qemu' ? 'vm' : 'ct'}/${g.vmid}`;
      for (const t of backupTimes(g.vmid, c.nowSec, 35)) {
        const ok = hash32(c.world.seed ^ g.vmid ^ t) % 20 !== 0;
        const wid = gid;
        out.push(
          task(
            upid(t, ++n, 'backup', wid),
            t,
            t + backupDuration(g.vmid),
            'backup',
            wid,
            ok ? 'OK' : 'backup failed: connection error: Connection reset by peer',
          ),
        );
      }
    }
    for (const t of dailyRuns(c.nowSec, 35, 2 * 3600))
      out.push(task(upid(t, ++n, 'garbage_collection', s.name), t, t + 420, 'garbage_collection', s.name, 'OK'));
    for (const t of dailyRuns(c.nowSec, 35, 3 * 3600))
      out.push(
        task(
          upid(t, ++n, 'verificationjob', `${s.name}:v-${s.name}`),
          t,
          t + 900,
          'verificationjob',
          `${s.name}:v-${s.name}`,
          'OK',
        ),
      );
  }
  return out.sort((a, b) => (b.starttime as number) - (a.starttime as number));
}

function task(upidText: string, start: number, end: number, type: string, wid: string, status: string) {
  const pid = Number.parseInt(upidText.split(':')[2]!, 16);
  const pstart = Number.parseInt(upidText.split(':')[3]!, 16);
  return {
    upid: upidText,
    node: 'localhost',
    pid,
    pstart,
    starttime: start,
    endtime: end,
    worker_type: type,
    worker_id: wid,
    user: 'root@pam',
    status,
  };
}

function dailyRuns(nowSec: number, days: number, offset: number): number[] {
  const out: number[] = [];
  const today = Math.floor(nowSec / 86400);
  for (let d = 0; d <= days; d++) {
    const t = (today - d) * 86400 + offset;
    if (t + 900 <= nowSec && out.length < days) out.push(t);
  }
  return out;
}

function tasks(c: Ctx) {
  const since = int(c, 'since');
  const until = int(c, 'until');
  const type = str(c, 'typefilter');
  const storeName = str(c, 'store');
  const errors = /^(1|true|yes|on)$/i.test(str(c, 'errors') ?? '');
  const running = /^(1|true|yes|on)$/i.test(str(c, 'running') ?? '');
  const items = running
    ? []
    : allTasks(c).filter(
        (t) =>
          (since === undefined || (t.starttime as number) >= since) &&
          (until === undefined || (t.starttime as number) <= until) &&
          (!type || (t.worker_type as string).includes(type)) &&
          (!storeName || (t.worker_id as string).startsWith(storeName)) &&
          (!errors || t.status !== 'OK'),
      );
  return page(items, c, 50);
}

const lastRun = (c: Ctx, offset: number) => dailyRuns(c.nowSec, 1, offset)[0] ?? c.world.epochSec;

function verifyJobs(c: Ctx, withState: boolean): unknown[] {
  const only = str(c, 'store');
  return c.world.nodes
    .filter((n) => !only || n.name === only)
    .map((n) => {
      const job: Record<string, unknown> = {
        id: `v-${n.name}`,
        store: n.name,
        schedule: 'daily',
        'ignore-verified': true,
        'outdated-after': 30,
      };
      if (!withState) return job;
      const t = lastRun(c, 3 * 3600);
      return {
        ...job,
        'last-run-state': 'OK',
        'last-run-endtime': t + 900,
        'last-run-upid': verifyUpid(t, n.name),
        'next-run': t + 86400,
      };
    });
}

function pruneJobs(c: Ctx, withState: boolean): unknown[] {
  const only = str(c, 'store');
  return c.world.nodes
    .filter((n) => !only || n.name === only)
    .map((n) => {
      const job: Record<string, unknown> = {
        id: `p-${n.name}`,
        store: n.name,
        schedule: 'daily',
        'keep-daily': 7,
        'keep-weekly': 4,
      };
      if (!withState) return job;
      const t = lastRun(c, 4 * 3600);
      return { ...job, 'last-run-state': 'OK', 'last-run-endtime': t + 60, 'next-run': t + 86400 };
    });
}

function syncJobs(c: Ctx, withState: boolean): unknown[] {
  const first = c.world.nodes[0];
  if (!first || (str(c, 'store') && str(c, 'store') !== first.name)) return [];
  const job: Record<string, unknown> = {
    id: 's-offsite',
    store: first.name,
    remote: 'offsite',
    'remote-store': 'backup',
    schedule: 'hourly',
  };
  if (!withState) return [job];
  const t = Math.floor(c.nowSec / 3600) * 3600 - 3600;
  return [{ ...job, 'last-run-state': 'OK', 'last-run-endtime': t + 300, 'next-run': t + 7200 }];
}

function gcJobs(c: Ctx): unknown[] {
  const only = str(c, 'store');
  return c.world.nodes
    .filter((n) => !only || n.name === only)
    .map((n) => {
      const t = lastRun(c, 2 * 3600);
      return {
        store: n.name,
        ...gcStatus(c, n),
        schedule: 'daily',
        'last-run-state': 'OK',
        'last-run-endtime': t + 420,
        'next-run': t + 86400,
        duration: 420,
      };
    });
}

export const bakJobRoutes: RouteDef[] = [
  ['GET', '/nodes/{node}/tasks', tasks],
  ['GET', '/config/sync', (c) => syncJobs(c, false)],
  ['GET', '/config/verify', (c) => verifyJobs(c, false)],
  ['GET', '/config/prune', (c) => pruneJobs(c, false)],
  ['GET', '/admin/sync', (c) => syncJobs(c, true)],
  ['GET', '/admin/verify', (c) => verifyJobs(c, true)],
  ['GET', '/admin/prune', (c) => pruneJobs(c, true)],
  ['GET', '/admin/gc', gcJobs],
];
