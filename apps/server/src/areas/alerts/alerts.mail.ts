import type { AlertConfig } from '@svc/contract';
import type { MailInstanceRecord } from '../../collectors/index.js';
import { delaySeconds } from './alerts.config.js';
import { type Base, compact, type Observation, offlineCondition, type UnitResult } from './alerts.rules.js';

/** mail: queue depth (total, deferred, hold), oldest queued message, quarantine sizes; warn/crit pairs. */
export function mailRules(c: AlertConfig, m: MailInstanceRecord): UnitResult {
  const owner = `pmg:${m.id}`;
  const o = c.overrides[m.id];
  if (c.disableAllPMG || o?.disabled) return { owner, observations: [], partial: false };
  const base: Base = {
    resourceType: 'pmg',
    resourceId: m.id,
    resourceName: m.name,
    node: m.name,
    instance: m.id,
    category: 'offline',
  };
  const offline = m.status === 'offline';
  const conn = offlineCondition(c, base, {
    disabled: c.disableAllPMGOffline || o?.disableConnectivity,
    offline,
    what: 'Mail gateway',
  });
  if (offline || m.status === 'unknown') return { owner, observations: compact([conn]), partial: true };
  const q = { total: 0, deferred: 0, hold: 0, oldest: 0 };
  for (const n of m.nodes) {
    if (!n.queueStatus) continue;
    q.total += n.queueStatus.total;
    q.deferred += n.queueStatus.deferred;
    q.hold += n.queueStatus.hold;
    q.oldest = Math.max(q.oldest, n.queueStatus.oldestAge / 60);
  }
  const p = c.pmgDefaults;
  const perf: Base = { ...base, category: 'performance' };
  const pair = (suffix: string, label: string, value: number, warn: number, crit: number) =>
    mailPair(c, perf, { suffix, label, value, warn, crit });
  return {
    owner,
    partial: false,
    observations: compact([
      conn,
      pair('queue-total', 'Mail queue', q.total, p.queueTotalWarning, p.queueTotalCritical),
      pair('queue-deferred', 'Deferred mail queue', q.deferred, p.deferredQueueWarn, p.deferredQueueCritical),
      pair('queue-hold', 'Held mail queue', q.hold, p.holdQueueWarn, p.holdQueueCritical),
      pair(
        'oldest-message',
        'Oldest queued message (minutes)',
        Math.floor(q.oldest),
        p.oldestMessageWarnMins,
        p.oldestMessageCritMins,
      ),
      m.quarantine
        ? pair('quarantine-spam', 'Spam quarantine', m.quarantine.spam, p.quarantineSpamWarn, p.quarantineSpamCritical)
        : undefined,
      m.quarantine
        ? pair(
            'quarantine-virus',
            'Virus quarantine',
            m.quarantine.virus,
            p.quarantineVirusWarn,
            p.quarantineVirusCritical,
          )
        : undefined,
    ]),
  };
}

function mailPair(
  c: AlertConfig,
  base: Base,
  x: { suffix: string; label: string; value: number; warn: number; crit: number },
): Observation | undefined {
  if (!(x.warn > 0)) return undefined;
  const critical = x.crit > 0 && x.value >= x.crit;
  return {
    ...base,
    id: `${base.resourceId}-${x.suffix}`,
    type: x.suffix,
    state: x.value >= x.warn ? 'above' : 'below',
    level: critical ? 'critical' : 'warning',
    value: x.value,
    threshold: critical ? x.crit : x.warn,
    clear: x.warn,
    message: `${x.label} at ${x.value} on ${base.resourceName} (threshold ${critical ? x.crit : x.warn})`,
    delayMs: delaySeconds(c, 'pmg', x.suffix) * 1000,
  };
}
