import type { ApiClient } from '../api.client.js';
import type { Collector, CollectorDeps, ConnectionTest, InstanceConfig, MailPollResult } from '../collector.js';
import { soft } from '../collector.soft.js';
import { obj, str } from '../map.coerce.js';
import type { MailNode } from '../model.js';
import { createMailClient } from './mail.client.js';
import {
  buildQueueStatus,
  MAIL_QUEUES,
  type MailContext,
  type MailQueue,
  mapMailBackups,
  mapMailCluster,
  mapMailInstance,
  mapMailNodeNames,
  mapMailNodeStatus,
  mapMailStats,
  mapQuarantineCount,
} from './mail.map.js';

/** Polls one mail gateway (or its cluster): node status and queues, mail statistics, quarantine. */
export function createMailCollector(cfg: InstanceConfig, deps: CollectorDeps): Collector {
  const client = createMailClient(cfg, deps);
  const api = client.api;
  const slowEvery = cfg.collect?.slowEvery ?? 10;
  let cycle = 0;

  const poll = async (signal: AbortSignal): Promise<MailPollResult> => {
    const at = deps.clock.now();
    const warnings: string[] = [];
    const ctx: MailContext = { instance: cfg.id, name: cfg.name, host: cfg.host, at };
    const [version, nodeList, cluster] = await Promise.all([
      api.get('/version', undefined, signal),
      api.get('/nodes', undefined, signal),
      soft(api.get('/config/cluster/status', { list_single_node: 1 }, signal), warnings, 'cluster'),
    ]);
    const roles = new Map(mapMailCluster(cluster).map((m) => [m.name, m.role]));
    const nodes = await Promise.all(
      mapMailNodeNames(nodeList).map((n) => readNode(api, n, roles.get(n), at, warnings, signal)),
    );
    const [stats, spam, virus] = await Promise.all([
      soft(api.get('/statistics/mail', undefined, signal), warnings, 'statistics'),
      soft(api.get('/quarantine/spamstatus', undefined, signal), warnings, 'spam quarantine'),
      soft(api.get('/quarantine/virusstatus', undefined, signal), warnings, 'virus quarantine'),
    ]);
    const quarantine =
      spam === undefined && virus === undefined
        ? undefined
        : { spam: mapQuarantineCount(spam), virus: mapQuarantineCount(virus) };
    const instance = mapMailInstance(
      ctx,
      version,
      nodes,
      stats === undefined ? undefined : mapMailStats(stats, at),
      quarantine,
    );
    const result: MailPollResult = { kind: 'mail', at, instance, warnings };
    if (slowEvery > 0 && cycle++ % slowEvery === 0) {
      const per = await Promise.all(
        nodes
          .filter((n) => n.status === 'online')
          .map(async (n) => {
            const path = `/nodes/${encodeURIComponent(n.name)}/backup`;
            return mapMailBackups(
              ctx,
              n.name,
              await soft(api.get(path, undefined, signal), warnings, `backups ${n.name}`),
            );
          }),
      );
      result.slow = { backups: per.flat() };
    }
    return result;
  };

  const test = async (signal: AbortSignal): Promise<ConnectionTest> => ({
    kind: 'mail',
    version: str(obj(await api.get('/version', undefined, signal)).version),
  });

  return { kind: 'mail', poll, test, endpoints: () => client.sender.health(), close: client.close };
}

async function readNode(
  api: ApiClient,
  name: string,
  role: string | undefined,
  at: number,
  warnings: string[],
  signal: AbortSignal,
): Promise<MailNode> {
  const base = `/nodes/${encodeURIComponent(name)}`;
  const status = await soft(api.get(`${base}/status`, undefined, signal), warnings, `node ${name}`);
  const node = mapMailNodeStatus(name, role, status);
  if (status === undefined) return node;
  const shapes: Partial<Record<MailQueue, unknown>> = {};
  await Promise.all(
    MAIL_QUEUES.map(async (queue) => {
      shapes[queue] = await soft(api.get(`${base}/postfix/qshape`, { queue }, signal), warnings, `queue ${queue}`);
    }),
  );
  node.queueStatus = buildQueueStatus(shapes, at);
  return node;
}
