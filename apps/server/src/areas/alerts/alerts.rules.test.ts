import { describe, expect, it } from 'vitest';
import type { MailInstanceRecord, StorageBackup } from '../../collectors/index.js';
import { backupRules } from './alerts.age.js';
import { defaultAlertConfig } from './alerts.config.js';
import { mailRules } from './alerts.mail.js';
import { storageRules } from './alerts.rules.js';
import { guest, T0 } from './alerts.testing.js';

const DAY = 86_400_000;

describe('alert rules (pure)', () => {
  it('mail: queue depth sums the cluster nodes, critical at the critical value; oldest message in minutes', () => {
    const q = (total: number, deferred: number, oldestAge: number) => ({
      active: 0,
      deferred,
      hold: 0,
      incoming: 0,
      total,
      oldestAge,
      updatedAt: 0,
    });
    const m: MailInstanceRecord = {
      id: 'mx',
      name: 'mx',
      host: 'h',
      status: 'online',
      version: '8',
      connectionHealth: 'healthy',
      lastSeen: 0,
      nodes: [
        { name: 'a', status: 'online', queueStatus: q(600, 10, 45 * 60) },
        { name: 'b', status: 'online', queueStatus: q(500, 5, 60) },
      ],
      quarantine: { spam: 10, virus: 0, attachment: 0, blacklisted: 0 },
    };
    const obs = mailRules(defaultAlertConfig(), m).observations;
    const by = Object.fromEntries(obs.map((o) => [o.id, o]));
    expect(by['mx-queue-total']).toMatchObject({ state: 'above', level: 'critical', value: 1100, threshold: 1000 });
    expect(by['mx-oldest-message']).toMatchObject({ state: 'above', level: 'warning', value: 45 });
    expect(by['mx-queue-deferred']?.state).toBe('below');
    expect(by['mx-quarantine-spam']?.state).toBe('below');
  });

  it('storage usage with hysteresis, and unavailable storage raises its offline alert', () => {
    const s = {
      id: 'lab-pve1-local',
      storage: 'local',
      name: 'local',
      node: 'pve1',
      instance: 'lab',
      type: 'dir',
      status: 'available',
      total: 100,
      used: 82,
      avail: 18,
      free: 18,
      usage: 82,
      content: '',
      shared: false,
      enabled: true,
      active: true,
    };
    const c = defaultAlertConfig();
    expect(storageRules(c, s).observations.find((o) => o.type === 'usage')?.state).toBe('between');
    expect(storageRules(c, { ...s, usage: 86 }).observations.find((o) => o.type === 'usage')?.state).toBe('above');
    const off = storageRules(c, { ...s, status: 'unavailable' });
    expect(off).toMatchObject({
      partial: true,
      observations: [{ id: 'storage-offline-lab-pve1-local', state: 'above' }],
    });
  });

  it('backup age: the newest backup of a guest counts; only when enabled', () => {
    const b = (days: number): StorageBackup => ({
      id: `b${days}`,
      storage: 'nfs',
      node: 'pve1',
      instance: 'lab',
      type: 'qemu',
      vmid: 100,
      time: T0 - days * DAY,
      ctime: 0,
      size: 1,
      format: 'vma',
      protected: false,
      volid: '',
      isPBS: false,
      verified: false,
    });
    const c = defaultAlertConfig();
    expect(backupRules(c, T0, [guest()], [b(20)], []).observations).toEqual([]);
    c.backupDefaults.enabled = true;
    const [o] = backupRules(c, T0, [guest()], [b(20), b(9)], []).observations;
    expect(o).toMatchObject({
      id: 'backup-age-lab:pve1:100',
      state: 'above',
      level: 'warning',
      value: 9,
      threshold: 7,
    });
    const [crit] = backupRules(c, T0, [guest()], [b(20)], []).observations;
    expect(crit).toMatchObject({ level: 'critical', threshold: 14 });
  });
});
