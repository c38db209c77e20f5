import { createMemoryLogger, FakeClock } from '@svc/platform';
import type { GuestRecord, HvPollResult, NodeRecord } from '../../collectors/index.js';
import { type Db, migrateServerDatabase, openServerDatabase } from '../../platform/db/index.js';
import { LiveState } from '../../state/index.js';
import type { AreaDeps } from '../area.js';
import { createMemorySink, type NoticeSink } from './alerts.notices.js';
import { createAlertsArea } from './index.js';

export const T0 = Date.UTC(2026, 10, 23, 12, 0, 0); // a Monday, 07:00 in New York

/** Quiet-hours days: all of them. */
export const EVERY_DAY = {
  monday: true,
  tuesday: true,
  wednesday: true,
  thursday: true,
  friday: true,
  saturday: true,
  sunday: true,
};

export function node(over: Partial<NodeRecord> = {}): NodeRecord {
  const usage = (u: number) => ({ total: 100, used: u, free: 100 - u, usage: u });
  return {
    id: 'lab-pve1',
    node: 'pve1',
    name: 'pve1',
    displayName: 'pve1',
    instance: 'lab',
    status: 'online',
    type: 'node',
    cpu: 0.1,
    memory: usage(20),
    mem: 20,
    maxmem: 100,
    disk: usage(10),
    maxdisk: 100,
    uptime: 1000,
    loadAverage: [],
    kernelVersion: '',
    pveVersion: '',
    cpuInfo: { model: '', cores: 8, sockets: 1, mhz: '' },
    lastSeen: 0,
    connectionHealth: 'healthy',
    isClusterMember: false,
    ...over,
  };
}

export function guest(over: Partial<GuestRecord> = {}): GuestRecord {
  const usage = (u: number) => ({ total: 100, used: u, free: 100 - u, usage: u });
  return {
    id: 'lab:pve1:100',
    vmid: 100,
    name: 'web-01',
    node: 'pve1',
    instance: 'lab',
    status: 'running',
    type: 'qemu',
    cpu: 0.1,
    cpus: 4,
    memory: usage(30),
    mem: 30,
    maxmem: 100,
    memorySource: 'status',
    disk: usage(20),
    diskSource: 'guest-agent',
    networkIn: 0,
    networkOut: 0,
    diskRead: 0,
    diskWrite: 0,
    uptime: 100,
    template: false,
    lastSeen: 0,
    ...over,
  };
}

export function hvPoll(at: number, parts: { nodes?: NodeRecord[]; vms?: GuestRecord[] }): HvPollResult {
  return {
    kind: 'hv',
    at,
    cluster: undefined,
    nodes: parts.nodes ?? [node()],
    vms: parts.vms ?? [],
    containers: [],
    storage: [],
    warnings: [],
  };
}

/** An alerts area on its own (no HTTP): a fake clock, a live state to feed, an in-memory notice sink. */
export async function createAlertsHarness(opts: { db?: Db; clock?: FakeClock; sink?: NoticeSink } = {}) {
  const db = opts.db ?? openServerDatabase({ dataDir: ':memory:', databaseUrl: undefined });
  if (!opts.db) await migrateServerDatabase(db);
  const clock = opts.clock ?? new FakeClock(T0);
  const state = new LiveState({ clock });
  const memory = createMemorySink();
  const sink = memory;
  const { logger } = createMemoryLogger('warn');
  const deps = { db, clock, log: logger, state } as unknown as AreaDeps;
  const area = createAlertsArea(deps, { record: async () => undefined }, { sink: opts.sink ?? memory });
  await area.start();
  const actor = { user: 'tester', ip: '127.0.0.1', path: '/test' };
  return {
    db,
    clock,
    state,
    sink,
    area,
    actor,
    /** Feeds one hv poll and waits for the engine to finish with it. */
    async poll(parts: { nodes?: NodeRecord[]; vms?: GuestRecord[] }) {
      state.applyPoll('lab', hvPoll(clock.now(), parts));
      await area.idle();
    },
    async tick(ms = 0) {
      clock.advance(ms);
      await area.tick();
      await area.idle();
    },
    events: () => sink.notices.map((n) => `${n.event} ${n.alert.id}`),
    active: () => area.service.listActive(),
  };
}
