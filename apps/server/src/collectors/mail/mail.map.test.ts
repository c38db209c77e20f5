import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseEnvelope } from '../api.transport.js';
import {
  buildQueueStatus,
  type MailContext,
  mapMailBackups,
  mapMailCluster,
  mapMailInstance,
  mapMailNodeNames,
  mapMailNodeStatus,
  mapMailStats,
  mapQshape,
  mapQuarantineCount,
} from './mail.map.js';

const fixture = (name: string): unknown =>
  parseEnvelope(readFileSync(new URL(`./fixtures/${name}.json`, import.meta.url), 'utf8'), name).data;
const at = 1767268800000;
const ctx: MailContext = { instance: 'mail-1', name: 'gw', host: 'https://10.0.1.21:8006', at };

describe('mail mappers', () => {
  it('maps nodes, cluster roles and node status', () => {
    expect(mapMailNodeNames(fixture('nodes'))).toEqual(['pmg1', 'pmg2']);
    expect(mapMailCluster(fixture('cluster-status'))).toEqual([
      { name: 'pmg1', role: 'master', ip: '10.0.1.21' },
      { name: 'pmg2', role: 'node', ip: '10.0.1.22' },
    ]);
    expect(mapMailNodeStatus('pmg1', 'master', fixture('node-status'))).toEqual({
      name: 'pmg1',
      status: 'online',
      role: 'master',
      uptime: 432000,
      loadAvg: '0.05, 0.10, 0.08',
    });
    expect(mapMailNodeStatus('pmg2', 'node', undefined).status).toBe('unknown');
  });

  it('maps mail statistics (avptime seconds → ms)', () => {
    expect(mapMailStats(fixture('statistics-mail'), at)).toMatchObject({
      countTotal: 15234,
      countIn: 12001,
      spamIn: 2103,
      virusIn: 12,
      greylistCount: 612,
      junkIn: 2815,
      averageProcessTimeMs: 1234,
      rblRejects: 1201,
      bytesIn: 1893841210,
    });
  });

  it('maps qshape totals and the oldest age bucket into a queue status', () => {
    expect(mapQshape(fixture('qshape-deferred'))).toEqual({ total: 12, oldestAge: 160 * 60 });
    expect(mapQshape(fixture('qshape-empty'))).toEqual({ total: 0, oldestAge: 0 });
    expect(mapQshape('garbage')).toEqual({ total: 0, oldestAge: 0 });
    const q = buildQueueStatus({ deferred: fixture('qshape-deferred'), active: fixture('qshape-empty') }, at);
    expect(q).toEqual({ active: 0, deferred: 12, hold: 0, incoming: 0, total: 12, oldestAge: 9600, updatedAt: at });
  });

  it('maps quarantine status and builds the instance', () => {
    const spam = mapQuarantineCount(fixture('spamstatus'));
    const virus = mapQuarantineCount(fixture('virusstatus'));
    const nodes = [
      mapMailNodeStatus('pmg1', 'master', fixture('node-status')),
      mapMailNodeStatus('pmg2', 'node', undefined),
    ];
    const inst = mapMailInstance(ctx, fixture('version'), nodes, undefined, { spam, virus });
    expect(inst).toMatchObject({
      id: 'mail-1',
      version: '9.0.2-1',
      status: 'warning',
      quarantine: { spam: 341, virus: 3, attachment: 0, blacklisted: 0 },
    });
  });

  it('maps local backup files', () => {
    expect(mapMailBackups(ctx, 'pmg1', fixture('backups'))).toEqual([
      {
        id: 'mail-1-pmg1-pmg-backup_2026_01_01_6955C8C2.tgz',
        instance: 'mail-1',
        node: 'pmg1',
        filename: 'pmg-backup_2026_01_01_6955C8C2.tgz',
        backupTime: 1767229122000,
        size: 183502,
      },
      expect.objectContaining({ size: 184230 }),
    ]);
  });
});
