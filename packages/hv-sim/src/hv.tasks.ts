import { hash32 } from './noise.js';
import {
  backupDuration,
  backupTimes,
  type Ctx,
  Enveloped,
  hex8,
  int,
  page,
  type RouteDef,
  reachNode,
  str,
} from './routes.common.js';
import type { GuestRec, NodeRec } from './types.js';
import { SimError } from './types.js';

function vzdumpTasks(c: Ctx, n: NodeRec): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  for (const g of c.world.guestsOf(n.name)) {
    for (const t of backupTimes(g.vmid, c.nowSec, 7)) {
      const pid = 100000 + (hash32(g.vmid ^ t) % 900000);
      const pstart = 1000000 + (t % 1000000);
      const fail = hash32(c.world.seed ^ g.vmid ^ t) % 20 === 0;
      out.push({
        upid: `UPID:${n.name}:${hex8(pid)}:${hex8(pstart)}:${hex8(t)}:vzdump:${g.vmid}:root@pam:`,
        node: n.name,
        pid,
        pstart,
        starttime: t,
        endtime: t + backupDuration(g.vmid),
        type: 'vzdump',
        id: String(g.vmid),
        user: 'root@pam',
        status: fail ? `ERROR: job failed with err -5 - Input/output error` : 'OK',
      });
    }
  }
  return out.sort((a, b) => (b.starttime as number) - (a.starttime as number));
}

function taskList(c: Ctx) {
  const n = reachNode(c, str(c, 'node')!);
  const typefilter = str(c, 'typefilter');
  const vmid = int(c, 'vmid');
  const since = int(c, 'since');
  const until = int(c, 'until');
  const errorsOnly = str(c, 'errors') === '1';
  const items = vzdumpTasks(c, n).filter(
    (t) =>
      (!typefilter || t.type === typefilter) &&
      (vmid === undefined || t.id === String(vmid)) &&
      (since === undefined || (t.starttime as number) >= since) &&
      (until === undefined || (t.starttime as number) <= until) &&
      (!errorsOnly || t.status !== 'OK'),
  );
  return page(items, c, 50);
}

/** The task a UPID names, if this node ran it. */
function findTask(c: Ctx): { task: Record<string, unknown>; guest: GuestRec } {
  const n = reachNode(c, str(c, 'node')!);
  const upid = str(c, 'upid')!;
  const task = vzdumpTasks(c, n).find((t) => t.upid === upid);
  const guest = task && c.world.guestById.get(Number(task.id));
  if (!task || !guest) throw new SimError(500, `unable to open file - No such file or directory`);
  return { task, guest };
}

function taskStatus(c: Ctx): Record<string, unknown> {
  const { task } = findTask(c);
  return { ...task, status: 'stopped', exitstatus: task.status };
}

/** The vzdump log lines a collector reads for backup details (size, duration, errors). */
function taskLog(c: Ctx): Enveloped {
  const { task, guest } = findTask(c);
  const kind = guest.type === 'qemu' ? 'qemu' : 'lxc';
  const lines = [
    `INFO: starting new backup job: vzdump ${guest.vmid} --storage local --mode snapshot --compress zstd`,
    `INFO: Starting Backup of VM ${guest.vmid} (${kind})`,
    `INFO: Backup started at ${new Date((task.starttime as number) * 1000).toISOString().replace('T', ' ').slice(0, 19)}`,
    task.status === 'OK'
      ? `INFO: Finished Backup of VM ${guest.vmid} (00:0${backupDuration(guest.vmid) % 10}:00)`
      : `ERROR: Backup of VM ${guest.vmid} failed - job failed with err -5 - Input/output error`,
    task.status === 'OK' ? 'INFO: Backup job finished successfully' : 'INFO: Backup job finished with errors',
    `TASK ${task.status}`,
  ];
  const start = int(c, 'start', 0)!;
  const limit = int(c, 'limit', 50)!;
  const out = lines.slice(start, start + limit).map((t, i) => ({ n: start + i + 1, t }));
  return new Enveloped(out, { total: lines.length });
}

export const hvTaskRoutes: RouteDef[] = [
  ['GET', '/nodes/{node}/tasks', taskList],
  ['GET', '/nodes/{node}/tasks/{upid}/status', taskStatus],
  ['GET', '/nodes/{node}/tasks/{upid}/log', taskLog],
];
