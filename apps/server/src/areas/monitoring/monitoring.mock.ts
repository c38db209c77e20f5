import type { Simulator } from '@svc/hv-sim';
import type { Logger } from '@svc/platform';
import type { InstanceConfig, PollManager } from '../../collectors/index.js';

export interface MockSettings {
  nodes: number;
  guestsPerNode: number;
}

const TOKEN = { tokenId: 'svc@pve!mock', secret: 'mock-mode' };
const BAK_TOKEN = { tokenId: 'svc@pbs!mock', secret: 'mock-mode' };
const MAIL_USER = { username: 'svc@pmg', password: 'mock-mode-password' };

/**
 * Mock mode: a simulated estate (hv cluster, bak, mail) started in-process on loopback and polled through
 * the real collectors into the real live state, while the configured instances are paused. Turning it off
 * removes the simulated instances and resumes the real ones. It is not persisted: a restart shows real data.
 */
export function createMockEstate(opts: {
  polls: PollManager;
  log: Logger;
  pauseReal(): Promise<void>;
  resumeReal(): Promise<void>;
}) {
  let sims: Simulator[] = [];
  let settings: MockSettings = { nodes: 3, guestsPerNode: 10 };
  let busy: Promise<unknown> = Promise.resolve();

  const instances = (hv: Simulator, bak: Simulator, mail: Simulator): InstanceConfig[] => [
    {
      id: 'mock-hv',
      kind: 'hv',
      name: 'mock-cluster',
      host: hv.url,
      credentials: { type: 'token', ...TOKEN },
      endpoints: hv.urls.slice(1).map((u) => ({ name: u.node, host: u.url })),
    },
    { id: 'mock-bak', kind: 'bak', name: 'mock-bak', host: bak.url, credentials: { type: 'token', ...BAK_TOKEN } },
    {
      id: 'mock-mail',
      kind: 'mail',
      name: 'mock-mail',
      host: mail.url,
      credentials: { type: 'password', ...MAIL_USER },
    },
  ];

  async function start(next: MockSettings): Promise<void> {
    await opts.pauseReal();
    // The simulator (and its API schemas) loads only when mock mode is first turned on.
    const { startSimulator } = await import('@svc/hv-sim');
    const common = { host: '127.0.0.1', port: 0, seed: 'svc-mock' };
    const hv = await startSimulator({
      ...common,
      kind: 'hv',
      cluster: 'mock',
      nodes: next.nodes,
      guestsPerNode: next.guestsPerNode,
      tokens: [TOKEN],
    });
    const bak = await startSimulator({ ...common, kind: 'bak', nodes: 2, guestsPerNode: 6, tokens: [BAK_TOKEN] });
    const mail = await startSimulator({ ...common, kind: 'mail', nodes: 1, users: [MAIL_USER] });
    sims = [hv, bak, mail];
    settings = next;
    for (const cfg of instances(hv, bak, mail)) opts.polls.upsert(cfg);
    await Promise.allSettled(['mock-hv', 'mock-bak', 'mock-mail'].map((id) => opts.polls.pollNow(id)));
    opts.log.warn({ nodes: next.nodes, guestsPerNode: next.guestsPerNode }, 'mock mode on: showing a simulated estate');
  }

  async function stop(): Promise<void> {
    await Promise.all(['mock-hv', 'mock-bak', 'mock-mail'].map((id) => opts.polls.remove(id)));
    await Promise.all(sims.map((s) => s.close()));
    sims = [];
    await opts.resumeReal();
    opts.log.warn('mock mode off: showing the configured instances again');
  }

  const serial = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = busy.then(fn, fn);
    busy = run.catch(() => undefined);
    return run;
  };

  return {
    enabled: (): boolean => sims.length > 0,
    view: () => ({ enabled: sims.length > 0, ...settings }),
    /** Serialized so two toggles never interleave; a change of size restarts the estate. */
    set(enabled: boolean, next: Partial<MockSettings>) {
      return serial(async () => {
        const wanted: MockSettings = {
          nodes: next.nodes ?? settings.nodes,
          guestsPerNode: next.guestsPerNode ?? settings.guestsPerNode,
        };
        if (sims.length > 0) await stop();
        if (enabled) await start(wanted);
        return { enabled: sims.length > 0, ...settings };
      });
    },
    close: () =>
      serial(async () => {
        if (sims.length > 0) await Promise.all(sims.map((s) => s.close()));
        sims = [];
      }),
  };
}

export type MockEstate = ReturnType<typeof createMockEstate>;
