#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { DEFAULT_PORTS, startSimulator } from './index.js';
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

async function main(): Promise<void> {
  let opts: SimulatorOptions;
  try {
    opts = parseCli(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(2);
  }
  const sim = await startSimulator(opts);
  const out = process.stdout;
  out.write(`svc-hv-sim: ${opts.kind} simulator ready at ${sim.url}/api2/json\n`);
  if (sim.urls.length > 1) for (const m of sim.urls) out.write(`  member ${m.node}: ${m.url}\n`);
  if (sim.fingerprint) out.write(`  TLS fingerprint (SHA-256): ${sim.fingerprint}\n`);
  out.write(`  control API: ${sim.url}/_sim/\n`);
  // One machine-readable line for scripts and tests.
  out.write(
    `${JSON.stringify({ event: 'ready', kind: opts.kind, url: sim.url, urls: sim.urls, fingerprint: sim.fingerprint ?? null })}\n`,
  );
  const stop = () => {
    sim.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((err: unknown) => {
  process.stderr.write(`svc-hv-sim: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
