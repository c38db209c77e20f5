import type { AlertConfig, AlertConfigPatch, ThresholdPair } from '@svc/contract';

const pair = (trigger: number, clear: number): ThresholdPair => ({ trigger, clear });
const off = (): ThresholdPair => ({ trigger: 0, clear: 0 });

/** Defaults of the reference (alerts-notifications.md A.4, A.7–A.9, A.13). */
export function defaultAlertConfig(): AlertConfig {
  return {
    enabled: true,
    activationState: 'pending_review',
    guestDefaults: {
      cpu: pair(80, 75),
      memory: pair(85, 80),
      disk: pair(90, 85),
      diskRead: off(),
      diskWrite: off(),
      networkIn: off(),
      networkOut: off(),
      poweredOffSeverity: 'warning',
    },
    nodeDefaults: { cpu: pair(80, 75), memory: pair(85, 80), disk: pair(90, 85), temperature: pair(80, 75) },
    storageDefault: pair(85, 80),
    pbsDefaults: { cpu: pair(80, 75), memory: pair(85, 80), datastore: pair(85, 80) },
    pmgDefaults: {
      queueTotalWarning: 500,
      queueTotalCritical: 1000,
      oldestMessageWarnMins: 30,
      oldestMessageCritMins: 60,
      deferredQueueWarn: 200,
      deferredQueueCritical: 500,
      holdQueueWarn: 100,
      holdQueueCritical: 300,
      quarantineSpamWarn: 2000,
      quarantineSpamCritical: 5000,
      quarantineVirusWarn: 2000,
      quarantineVirusCritical: 5000,
    },
    snapshotDefaults: { enabled: false, warningDays: 30, criticalDays: 45 },
    backupDefaults: {
      enabled: false,
      warningDays: 7,
      criticalDays: 14,
      freshHours: 24,
      staleHours: 72,
      alertOrphaned: true,
      ignoreVMIDs: [],
    },
    hysteresisMargin: 5,
    timeThresholds: { guest: 5, node: 5, storage: 5, pbs: 5, pmg: 5, all: 5 },
    metricTimeThresholds: {},
    maxAlertAgeDays: 7,
    maxAcknowledgedAgeDays: 1,
    autoAcknowledgeAfterHours: 24,
    flappingEnabled: true,
    flappingWindowSeconds: 300,
    flappingThreshold: 5,
    flappingCooldownMinutes: 15,
    schedule: {
      quietHours: {
        enabled: false,
        start: '22:00',
        end: '08:00',
        timezone: 'America/New_York',
        days: {
          monday: true,
          tuesday: true,
          wednesday: true,
          thursday: true,
          friday: true,
          saturday: false,
          sunday: false,
        },
        suppress: { performance: false, storage: false, offline: false },
      },
      cooldown: 5,
      maxAlertsHour: 10,
      notifyOnResolve: true,
      notifyOnResolveAcknowledged: true,
      recoveryRouting: 'alerted-channels',
      escalation: {
        enabled: false,
        levels: [
          { after: 15, notify: 'email' },
          { after: 30, notify: 'webhook' },
          { after: 60, notify: 'all' },
        ],
      },
      grouping: { enabled: true, window: 30, byNode: true, byGuest: false },
    },
    overrides: {},
    disableAllNodes: false,
    disableAllGuests: false,
    disableAllStorage: false,
    disableAllPBS: false,
    disableAllPMG: false,
    disableAllNodesOffline: false,
    disableAllGuestsOffline: false,
    disableAllPBSOffline: false,
    disableAllPMGOffline: false,
  };
}

/** Sections replaced whole by a PUT (maps whose keys a user must be able to delete). */
const replacedWhole = new Set(['overrides', 'timeThresholds', 'metricTimeThresholds']);

const isPlain = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Merges a validated patch over a config: objects key by key, arrays and the map sections replaced. */
export function mergeConfig(base: AlertConfig, patch: AlertConfigPatch): AlertConfig {
  const merge = (a: unknown, b: unknown, top: boolean, key: string): unknown => {
    if (b === undefined) return a;
    if ((top && replacedWhole.has(key)) || !isPlain(a) || !isPlain(b)) return b;
    const out: Record<string, unknown> = { ...a };
    for (const [k, v] of Object.entries(b)) out[k] = merge(a[k], v, false, k);
    return out;
  };
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(patch)) out[k] = merge(base[k as keyof AlertConfig], v, true, k);
  return out as AlertConfig;
}

/** Cross-field checks the schema cannot express; returns the offending field and why. */
export function checkConfig(c: AlertConfig): { field: string; message: string } | undefined {
  const levels = c.schedule.escalation.levels;
  for (let i = 1; i < levels.length; i++) {
    if ((levels[i]?.after ?? 0) <= (levels[i - 1]?.after ?? 0))
      return { field: `schedule.escalation.levels.${i}.after`, message: 'levels must be in increasing order of after' };
  }
  for (const [name, rule] of [
    ['backupDefaults', c.backupDefaults],
    ['snapshotDefaults', c.snapshotDefaults],
  ] as const) {
    if (rule.criticalDays > 0 && rule.criticalDays < rule.warningDays)
      return { field: `${name}.criticalDays`, message: 'criticalDays must not be below warningDays' };
  }
  const p = c.pmgDefaults;
  for (const [w, k] of [
    ['queueTotalWarning', 'queueTotalCritical'],
    ['oldestMessageWarnMins', 'oldestMessageCritMins'],
    ['deferredQueueWarn', 'deferredQueueCritical'],
    ['holdQueueWarn', 'holdQueueCritical'],
    ['quarantineSpamWarn', 'quarantineSpamCritical'],
    ['quarantineVirusWarn', 'quarantineVirusCritical'],
  ] as const) {
    if (p[k] > 0 && p[k] < p[w]) return { field: `pmgDefaults.${k}`, message: `must not be below ${w}` };
  }
  return undefined;
}

/** The clear value of a pair: as given, else trigger minus the hysteresis margin (never below 0). */
export function clearOf(t: ThresholdPair, margin: number): number {
  return t.clear ?? Math.max(0, t.trigger - margin);
}

/** Seconds a breach must last: type+metric, type default, all+metric, all default (A.5). */
export function delaySeconds(c: AlertConfig, type: string, metric: string): number {
  const m = c.metricTimeThresholds;
  const pick = (r: Record<string, number> | undefined) => r?.[metric] ?? undefined;
  const base = (r: Record<string, number> | undefined) => r?.default ?? r?._default ?? r?.['*'];
  return (
    pick(m[type]) ?? base(m[type]) ?? c.timeThresholds[type] ?? pick(m.all) ?? base(m.all) ?? c.timeThresholds.all ?? 0
  );
}
