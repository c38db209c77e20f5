import type { AlertConfig, AlertRecord } from '@svc/contract';
import type { Clock, Logger } from '@svc/platform';
import type { LiveState, StateDelta } from '../../state/index.js';
import { backupRules, snapshotRules } from './alerts.age.js';
import { observeUnit, Step } from './alerts.engine.js';
import { mailRules } from './alerts.mail.js';
import type { KeyState } from './alerts.model.js';
import { type AlertNotice, type NoticeSink, noticeEventId } from './alerts.notices.js';
import { bakRules, guestRules, nodeRules, storageRules, type UnitResult } from './alerts.rules.js';
import type { AlertsStore } from './alerts.store.js';
import { timedWork } from './alerts.timed.js';

export interface RunnerDeps {
  clock: Clock;
  log: Logger;
  state: LiveState;
  store: AlertsStore;
  sink: NoticeSink;
  config: () => AlertConfig;
}

const DRAIN_BATCH = 500;
const PURGE_EVERY_MS = 3_600_000;
const HISTORY_DAYS = 30;
const NOTICE_DAYS = 7;
const owners = {
  nodes: 'nodes',
  vms: 'guests',
  containers: 'guests',
  storage: 'storage',
  pbs: 'pbs',
  pmg: 'pmg',
} as const;

/**
 * Runs the engine: every step (a state delta, a tick, an API action) is serialised on one chain, computed on
 * copies, committed in one transaction with its notices, and only then made visible. Notices are handed to
 * the sink from the outbox after commit, so a crash between the two re-sends rather than loses.
 */
export function createAlertRunner(deps: RunnerDeps) {
  const states = new Map<string, KeyState>();
  const pending = new Map<string, number>();
  let chain: Promise<unknown> = Promise.resolve();
  let drainChain: Promise<unknown> = Promise.resolve();
  let unsubscribe: (() => void) | undefined;

  const serial = <T>(fn: () => Promise<T>): Promise<T> => {
    const p = chain.then(fn);
    chain = p.catch((err) => deps.log.error({ err }, 'alert engine step failed'));
    return p;
  };

  async function step<T>(fn: (s: Step) => T): Promise<T> {
    const s = new Step(deps.clock.now(), deps.config(), states, pending);
    const out = fn(s);
    const b = s.batch;
    if (b.put.size + b.del.size + b.history.length + b.incidents.length + b.notices.length === 0) return out;
    await deps.store.transaction((trx) => deps.store.apply(trx, b, s.now));
    for (const id of b.del) states.delete(id);
    for (const st of b.put.values()) states.set(st.id, st);
    if (b.notices.length > 0) void drain();
    return out;
  }

  function drain(): Promise<unknown> {
    drainChain = drainChain
      .then(async () => {
        for (;;) {
          const rows = await deps.store.dueNotices(deps.clock.now(), DRAIN_BATCH);
          if (rows.length === 0) return;
          const routing = deps.config().schedule.recoveryRouting;
          const notices: AlertNotice[] = rows.map((r) => ({
            eventId: noticeEventId(r.alert_id, r.event, Number(r.seq)),
            event: r.event as AlertNotice['event'],
            alert: JSON.parse(r.alert) as AlertRecord,
            at: Number(r.at),
            ...(r.event === 'resolved' ? { routing } : {}),
          }));
          await deps.sink.deliver(notices);
          await deps.store.markHanded(
            rows.map((r) => Number(r.seq)),
            deps.clock.now(),
          );
          if (rows.length < DRAIN_BATCH) return;
        }
      })
      .catch((err) => deps.log.warn({ err }, 'alert notices not handed over yet; retrying on the next tick'));
    return drainChain;
  }

  let lastPurge = Number.NEGATIVE_INFINITY;
  /** History older than 30 days and handed-over notices older than 7 days go, at most hourly. */
  async function purge(): Promise<void> {
    const now = deps.clock.now();
    if (now - lastPurge < PURGE_EVERY_MS) return;
    lastPurge = now;
    await deps.store.purge(now, HISTORY_DAYS, NOTICE_DAYS);
  }

  function unitsOfDelta(delta: StateDelta): UnitResult[] {
    const c = deps.config();
    const u = delta.upserts;
    const out: UnitResult[] = [];
    for (const n of u.nodes ?? []) out.push(nodeRules(c, n));
    for (const g of [...(u.vms ?? []), ...(u.containers ?? [])]) out.push(guestRules(c, g));
    for (const s of u.storage ?? []) out.push(storageRules(c, s));
    for (const b of u.pbs ?? []) out.push(bakRules(c, b));
    for (const m of u.pmg ?? []) out.push(mailRules(c, m));
    for (const [key, ids] of Object.entries(delta.removed)) {
      const prefix = owners[key as keyof typeof owners];
      if (prefix) for (const id of ids ?? []) out.push({ owner: `${prefix}:${id}`, observations: [], partial: false });
    }
    const touched = (k: keyof StateDelta['upserts']) => u[k] !== undefined || delta.removed[k] !== undefined;
    if (touched('storageBackups') || touched('pbsBackups')) out.push(backupUnit());
    if (touched('guestSnapshots')) out.push(snapshotUnit());
    return out;
  }

  const guests = () => [...deps.state.get('vms'), ...deps.state.get('containers')];
  const backupUnit = () =>
    backupRules(
      deps.config(),
      deps.clock.now(),
      guests(),
      deps.state.get('storageBackups'),
      deps.state.get('pbsBackups'),
    );
  const snapshotUnit = () => snapshotRules(deps.config(), deps.clock.now(), guests(), deps.state.get('guestSnapshots'));

  function allUnits(): UnitResult[] {
    const c = deps.config();
    const st = deps.state;
    return [
      ...st.get('nodes').map((n) => nodeRules(c, n)),
      ...guests().map((g) => guestRules(c, g)),
      ...st.get('storage').map((s) => storageRules(c, s)),
      ...st.get('pbs').map((b) => bakRules(c, b)),
      ...st.get('pmg').map((m) => mailRules(c, m)),
      backupUnit(),
      snapshotUnit(),
    ];
  }

  return {
    /** Loads persisted alerts, then evaluates every state change as it arrives. */
    start(): Promise<void> {
      const loaded = serial(async () => {
        for (const s of await deps.store.loadStates()) states.set(s.id, s);
      });
      unsubscribe = deps.state.subscribe((delta) => {
        void serial(() =>
          step((s) => {
            for (const u of unitsOfDelta(delta)) observeUnit(s, u);
          }),
        );
      });
      return loaded;
    },
    stop(): void {
      unsubscribe?.();
    },
    /** The periodic pass: time thresholds, ages, reminders, escalation, flapping ends, due deferred notices. */
    tick(): Promise<void> {
      return serial(async () => {
        await step((s) => {
          for (const u of allUnits()) observeUnit(s, u);
          timedWork(s);
        });
        await drain();
        await purge();
      });
    },
    /** A full re-evaluation (after a config change). */
    reevaluate: () =>
      serial(() =>
        step((s) => {
          for (const u of allUnits()) observeUnit(s, u);
        }),
      ),
    run: <T>(fn: (s: Step) => T): Promise<T> => serial(() => step(fn)),
    /** Resolves once every step queued so far (and the hand-over it caused) has finished. */
    async idle(): Promise<void> {
      await serial(async () => undefined);
      await drainChain;
    },
    active(): KeyState[] {
      return [...states.values()].filter((s) => s.active);
    },
    get: (id: string) => states.get(id),
  };
}

export type AlertRunner = ReturnType<typeof createAlertRunner>;
