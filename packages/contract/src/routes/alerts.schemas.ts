import { z } from 'zod';

/** Printable ASCII, 1–500 characters, no path traversal: the reference's identifier rule. */
export const alertIdentifier = z
  .string()
  .min(1)
  .max(500)
  .regex(/^[\x20-\x7e]+$/, 'printable ASCII only')
  .refine((s) => !s.includes('../') && !s.includes('/..') && s.trim() === s, 'not a valid alert identifier');

export const alertLevels = ['warning', 'critical'] as const;
export type AlertLevel = (typeof alertLevels)[number];

export const alertRecord = z
  .object({
    id: z.string().describe('Stable per resource and metric, e.g. `lab:pve1:100-cpu`, `node-offline-lab-pve1`'),
    type: z.string().describe('Metric (cpu, memory, disk, usage, ...) or condition (offline, powered-off, ...)'),
    level: z.enum(alertLevels),
    resourceId: z.string(),
    resourceName: z.string(),
    node: z.string(),
    nodeDisplayName: z.string().optional(),
    instance: z.string(),
    message: z.string(),
    value: z.number(),
    threshold: z.number(),
    startTime: z.string().describe('RFC 3339; the first time the condition held'),
    lastSeen: z.string(),
    acknowledged: z.boolean(),
    ackTime: z.string().optional(),
    ackUser: z.string().optional(),
    metadata: z.record(z.string(), z.unknown()).optional(),
    lastNotified: z.string().optional(),
    lastEscalation: z.number().int().optional(),
    escalationTimes: z.array(z.string()).optional(),
    flapping: z.boolean().optional().describe('True while repeat notices of this alert are held back'),
  })
  .meta({ id: 'Alert' });
export type AlertRecord = z.infer<typeof alertRecord>;

export const resolvedAlert = alertRecord
  .extend({ resolvedTime: z.string().optional().describe('Absent while the occurrence is still open') })
  .meta({ id: 'ResolvedAlert' });
export type ResolvedAlert = z.infer<typeof resolvedAlert>;

export const incidentEvent = z.object({
  id: z.string(),
  type: z.enum(['alert_fired', 'alert_acknowledged', 'alert_unacknowledged', 'alert_resolved', 'note']),
  timestamp: z.string(),
  summary: z.string(),
  details: z.record(z.string(), z.unknown()),
});

export const incident = z
  .object({
    id: z.string(),
    alertIdentifier: z.string(),
    alertType: z.string(),
    level: z.enum(alertLevels),
    resourceId: z.string(),
    resourceName: z.string(),
    resourceType: z.string(),
    node: z.string(),
    instance: z.string(),
    message: z.string(),
    status: z.enum(['open', 'resolved']),
    openedAt: z.string(),
    closedAt: z.string().optional(),
    acknowledged: z.boolean(),
    ackUser: z.string().optional(),
    ackTime: z.string().optional(),
    events: z.array(incidentEvent),
  })
  .meta({ id: 'Incident' });
export type Incident = z.infer<typeof incident>;

/** A hysteresis pair: fires at value ≥ trigger, resolves at value ≤ clear; trigger 0 turns it off. */
export const thresholdPair = z
  .object({ trigger: z.number().min(0).max(1e12), clear: z.number().min(0).max(1e12).optional() })
  .refine((t) => t.trigger === 0 || t.clear === undefined || t.clear < t.trigger, {
    message: 'clear must be below trigger',
    path: ['clear'],
  });
export type ThresholdPair = z.infer<typeof thresholdPair>;

const hhmm = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'expected HH:MM (24-hour)');
const timeZone = z.string().refine((tz) => {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}, 'unknown IANA time zone');
const seconds = z
  .number()
  .int()
  .min(0)
  .max(30 * 86_400);
const notifyTarget = z.enum(['email', 'webhook', 'apprise', 'all']);

const guestDefaults = z.object({
  cpu: thresholdPair,
  memory: thresholdPair,
  disk: thresholdPair,
  diskRead: thresholdPair.describe('MB/s'),
  diskWrite: thresholdPair.describe('MB/s'),
  networkIn: thresholdPair.describe('MB/s'),
  networkOut: thresholdPair.describe('MB/s'),
  poweredOffSeverity: z.enum(alertLevels),
});
const nodeDefaults = z.object({
  cpu: thresholdPair,
  memory: thresholdPair,
  disk: thresholdPair,
  temperature: thresholdPair,
});
const pbsDefaults = z.object({
  cpu: thresholdPair,
  memory: thresholdPair,
  datastore: thresholdPair.describe('Datastore usage percent'),
});
const pmgDefaults = z.object({
  queueTotalWarning: z.number().int().min(0),
  queueTotalCritical: z.number().int().min(0),
  oldestMessageWarnMins: z.number().int().min(0),
  oldestMessageCritMins: z.number().int().min(0),
  deferredQueueWarn: z.number().int().min(0),
  deferredQueueCritical: z.number().int().min(0),
  holdQueueWarn: z.number().int().min(0),
  holdQueueCritical: z.number().int().min(0),
  quarantineSpamWarn: z.number().int().min(0),
  quarantineSpamCritical: z.number().int().min(0),
  quarantineVirusWarn: z.number().int().min(0),
  quarantineVirusCritical: z.number().int().min(0),
});
const ageRule = z.object({
  enabled: z.boolean(),
  warningDays: z.number().min(0).max(3650),
  criticalDays: z.number().min(0).max(3650),
});
const snapshotDefaults = ageRule;
const backupDefaults = ageRule.extend({
  freshHours: z.number().min(0),
  staleHours: z.number().min(0),
  alertOrphaned: z.boolean(),
  ignoreVMIDs: z.array(z.string().max(64)).max(10_000).describe('Guest ids; a trailing * matches a prefix'),
});
const quietHours = z.object({
  enabled: z.boolean(),
  start: hhmm,
  end: hhmm,
  timezone: timeZone,
  days: z.object({
    monday: z.boolean(),
    tuesday: z.boolean(),
    wednesday: z.boolean(),
    thursday: z.boolean(),
    friday: z.boolean(),
    saturday: z.boolean(),
    sunday: z.boolean(),
  }),
  suppress: z
    .object({ performance: z.boolean(), storage: z.boolean(), offline: z.boolean() })
    .describe('Categories whose CRITICAL notices are deferred too; warnings are always deferred'),
});
const escalation = z.object({
  enabled: z.boolean(),
  levels: z
    .array(
      z.object({ after: z.number().int().min(1).max(525_600).describe('minutes after start'), notify: notifyTarget }),
    )
    .max(10),
});
const grouping = z.object({
  enabled: z.boolean(),
  window: z.number().int().min(0).max(3600).describe('seconds'),
  byNode: z.boolean(),
  byGuest: z.boolean(),
});
export const recoveryRoutings = ['alerted-channels', 'all-channels'] as const;
const recoveryRouting = z.enum(recoveryRoutings);
export type RecoveryRouting = z.infer<typeof recoveryRouting>;
const schedule = z.object({
  quietHours,
  cooldown: z.number().int().min(0).max(10_080).describe('Minutes between repeat notices of one alert; 0 = never'),
  maxAlertsHour: z.number().int().min(1).max(1000).describe('Repeat notices per alert per hour'),
  notifyOnResolve: z.boolean(),
  notifyOnResolveAcknowledged: z.boolean().describe('Announce the recovery of an acknowledged alert too'),
  recoveryRouting: recoveryRouting.describe(
    'alerted-channels: a recovery goes to the enabled channels that were sent the alert; all-channels: to every enabled channel',
  ),
  escalation,
  grouping,
});

const override = z.object({
  disabled: z.boolean().optional(),
  disableConnectivity: z.boolean().optional(),
  poweredOffSeverity: z.enum(alertLevels).optional(),
  cpu: thresholdPair.optional(),
  memory: thresholdPair.optional(),
  disk: thresholdPair.optional(),
  diskRead: thresholdPair.optional(),
  diskWrite: thresholdPair.optional(),
  networkIn: thresholdPair.optional(),
  networkOut: thresholdPair.optional(),
  usage: thresholdPair.optional(),
  temperature: thresholdPair.optional(),
  backup: ageRule.partial().optional(),
  snapshot: ageRule.partial().optional(),
  note: z.string().max(2000).optional(),
});
export type AlertOverride = z.infer<typeof override>;

const flags = {
  disableAllNodes: z.boolean(),
  disableAllGuests: z.boolean(),
  disableAllStorage: z.boolean(),
  disableAllPBS: z.boolean(),
  disableAllPMG: z.boolean(),
  disableAllNodesOffline: z.boolean(),
  disableAllGuestsOffline: z.boolean(),
  disableAllPBSOffline: z.boolean(),
  disableAllPMGOffline: z.boolean(),
};

const sections = {
  enabled: z.boolean(),
  guestDefaults,
  nodeDefaults,
  storageDefault: thresholdPair,
  pbsDefaults,
  pmgDefaults,
  snapshotDefaults,
  backupDefaults,
  hysteresisMargin: z.number().min(0).max(50),
  timeThresholds: z.record(z.string().max(64), seconds).describe('Seconds a breach must last, per resource type'),
  metricTimeThresholds: z.record(z.string().max(64), z.record(z.string().max(64), seconds)),
  maxAlertAgeDays: z.number().int().min(0).max(3650),
  maxAcknowledgedAgeDays: z.number().int().min(0).max(3650),
  autoAcknowledgeAfterHours: z.number().int().min(0).max(87_600).describe('0 = never'),
  flappingEnabled: z.boolean(),
  flappingWindowSeconds: z.number().int().min(10).max(86_400),
  flappingThreshold: z.number().int().min(2).max(100),
  flappingCooldownMinutes: z.number().int().min(1).max(10_080),
  schedule,
  overrides: z.record(z.string().min(1).max(500), override).describe('Per resource id'),
  ...flags,
};

export const alertConfig = z
  .object({
    ...sections,
    activationState: z.enum(['pending_review', 'active', 'snoozed']),
    activationTime: z.string().optional(),
  })
  .meta({ id: 'AlertConfig' });
export type AlertConfig = z.infer<typeof alertConfig>;

/** PUT body: every section optional, and inside objects every key optional (merged over the stored config). */
export const alertConfigPatch = z
  .object({
    ...sections,
    guestDefaults: guestDefaults.partial(),
    nodeDefaults: nodeDefaults.partial(),
    pbsDefaults: pbsDefaults.partial(),
    pmgDefaults: pmgDefaults.partial(),
    snapshotDefaults: snapshotDefaults.partial(),
    backupDefaults: backupDefaults.partial(),
    schedule: schedule
      .extend({
        quietHours: quietHours.extend({ days: quietHours.shape.days.partial() }).partial(),
        escalation: escalation.partial(),
        grouping: grouping.partial(),
      })
      .partial(),
  })
  .partial()
  .meta({ id: 'AlertConfigUpdate' });
export type AlertConfigPatch = z.infer<typeof alertConfigPatch>;
