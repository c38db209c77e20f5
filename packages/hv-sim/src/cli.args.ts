import { parseArgs } from 'node:util';
import { DEFAULT_PORTS } from './index.js';
import { parseTokenSpec } from './sim.auth.js';
import type { Kind, SimulatorOptions } from './types.js';

const USAGE = `usage: svc-hv-sim --kind hv|bak|mail [--port N] [--host 127.0.0.1] [--nodes N] [--guests-per-node N]
                  [--seed S] [--cluster NAME] [--tls] [--token USER@REALM!ID=SECRET ...]
                  [--user USER@REALM --password PASS] [--no-strict]`;

function int(v: string | undefined, name: string, dflt: number): number {
  if (v === undefined) return dflt;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} must be a whole number >= 0`);
  return n;
}

/** Turns argv into simulator options; throws with a readable message on bad input. */
export function parseCli(argv: string[]): SimulatorOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      kind: { type: 'string', default: 'hv' },
      port: { type: 'string' },
      host: { type: 'string', default: '127.0.0.1' },
      nodes: { type: 'string' },
      'guests-per-node': { type: 'string' },
      seed: { type: 'string', default: '1' },
      cluster: { type: 'string' },
      tls: { type: 'boolean', default: false },
      token: { type: 'string', multiple: true },
      user: { type: 'string' },
      password: { type: 'string' },
      'no-strict': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
  });
  if (values.help) throw new Error(USAGE);
  const kind = values.kind as Kind;
  if (!['hv', 'bak', 'mail'].includes(kind)) throw new Error(`--kind must be hv, bak or mail\n${USAGE}`);
  if ((values.user === undefined) !== (values.password === undefined))
    throw new Error('--user and --password go together');
  const tokens = (values.token ?? []).map(parseTokenSpec);
  if (kind === 'mail' && tokens.length > 0)
    throw new Error('the mail gateway has no API tokens; use --user/--password');
  if (tokens.length === 0 && values.user === undefined)
    throw new Error(`give --token and/or --user/--password\n${USAGE}`);
  return {
    kind,
    host: values.host,
    port: int(values.port, 'port', DEFAULT_PORTS[kind]),
    nodes: int(values.nodes, 'nodes', 1),
    guestsPerNode: int(values['guests-per-node'], 'guests-per-node', kind === 'mail' ? 5 : 10),
    seed: values.seed,
    cluster: values.cluster,
    tls: values.tls,
    tokens,
    users: values.user !== undefined ? [{ username: values.user, password: values.password! }] : [],
    strict: !values['no-strict'],
  };
}
