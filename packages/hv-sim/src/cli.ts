#!/usr/bin/env node
import { parseCli } from './cli.args.js';
import { startSimulator } from './index.js';
import type { SimulatorOptions } from './types.js';

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
