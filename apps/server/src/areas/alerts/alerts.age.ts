import type { AlertConfig } from '@svc/contract';
import type { BakBackup, GuestRecord, GuestSnapshot, StorageBackup } from '../../collectors/index.js';
import type { Observation, UnitResult } from './alerts.rules.js';

const DAY = 86_400_000;
const days = (ms: number) => Math.round((ms / DAY) * 10) / 10;

function ignored(patterns: readonly string[], g: GuestRecord): boolean {
  const keys = [String(g.vmid), g.id];
  return patterns.some((p) => (p.endsWith('*') ? keys.some((k) => k.startsWith(p.slice(0, -1))) : keys.includes(p)));
}

/**
 * Backup age per guest: the newest backup of the guest on hv storage (same instance and vmid) or on a bak
 * datastore (same vmid). Guests never backed up raise nothing here; only stale backups do.
 */
export function backupRules(
  c: AlertConfig,
  now: number,
  guests: GuestRecord[],
  storage: StorageBackup[],
  bak: BakBackup[],
): UnitResult {
  const newest = new Map<string, { time: number; source: string }>();
  const note = (key: string, time: number, source: string) => {
    if (time > (newest.get(key)?.time ?? -1)) newest.set(key, { time, source });
  };
  for (const b of storage) note(`${b.instance}:${b.vmid}`, b.time, b.storage);
  for (const b of bak) note(`*:${b.vmid}`, b.backupTime, `${b.instance}/${b.datastore}`);
  const observations: Observation[] = [];
  for (const g of guests) {
    const rule = { ...c.backupDefaults, ...c.overrides[g.id]?.backup };
    if (!rule.enabled || g.template || ignored(c.backupDefaults.ignoreVMIDs, g)) continue;
    const a = newest.get(`${g.instance}:${g.vmid}`);
    const b = newest.get(`*:${g.vmid}`);
    const last = !a ? b : !b ? a : a.time >= b.time ? a : b;
    if (!last) continue;
    observations.push(ageObservation(g, last, now, rule));
  }
  return { owner: 'backups', observations, partial: false };
}

function ageObservation(
  g: GuestRecord,
  last: { time: number; source: string },
  now: number,
  rule: { warningDays: number; criticalDays: number },
): Observation {
  const age = days(now - last.time);
  const critical = rule.criticalDays > 0 && age >= rule.criticalDays;
  const threshold = critical ? rule.criticalDays : rule.warningDays;
  return {
    id: `backup-age-${g.id}`,
    type: 'backup-age',
    category: 'backup',
    resourceType: 'guest',
    resourceId: g.id,
    resourceName: g.name,
    node: g.node,
    instance: g.instance,
    state: rule.warningDays > 0 && age >= rule.warningDays ? 'above' : 'below',
    level: critical ? 'critical' : 'warning',
    value: age,
    threshold,
    clear: rule.warningDays,
    message: `${g.name} backup via ${last.source} is ${age.toFixed(1)} days old (threshold: ${threshold} days)`,
    delayMs: 0,
  };
}

/** Snapshot age per snapshot (`snapshot-age-<snapshotId>`). */
export function snapshotRules(c: AlertConfig, now: number, guests: GuestRecord[], snaps: GuestSnapshot[]): UnitResult {
  const byKey = new Map(guests.map((g) => [`${g.instance}:${g.node}:${g.vmid}`, g]));
  const observations: Observation[] = [];
  for (const s of snaps) {
    const g = byKey.get(`${s.instance}:${s.node}:${s.vmid}`);
    const rule = { ...c.snapshotDefaults, ...(g ? c.overrides[g.id]?.snapshot : undefined) };
    if (!rule.enabled || !(rule.warningDays > 0)) continue;
    const age = days(now - s.time);
    const critical = rule.criticalDays > 0 && age >= rule.criticalDays;
    const threshold = critical ? rule.criticalDays : rule.warningDays;
    const name = g?.name ?? `${s.type} ${s.vmid}`;
    observations.push({
      id: `snapshot-age-${s.id}`,
      type: 'snapshot-age',
      category: 'backup',
      resourceType: 'snapshot',
      resourceId: g?.id ?? `${s.instance}:${s.node}:${s.vmid}`,
      resourceName: name,
      node: s.node,
      instance: s.instance,
      state: age >= rule.warningDays ? 'above' : 'below',
      level: critical ? 'critical' : 'warning',
      value: age,
      threshold,
      clear: rule.warningDays,
      message: `Snapshot '${s.name}' of ${name} is ${age.toFixed(1)} days old (threshold: ${threshold} days)`,
      delayMs: 0,
    });
  }
  return { owner: 'snapshots', observations, partial: false };
}
