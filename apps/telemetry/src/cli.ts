#!/usr/bin/env node
import { serveUntilSignal } from '@svc/platform';
import { configVariables, loadConfig } from './config/index.js';
import { startTelemetry } from './main.js';
import { telemetryVersion } from './version.js';

const usage = `svc-telemetry — anonymous install telemetry: ingest, statistics API and dashboard

Usage:
  svc-telemetry [serve]     start the service (default command)
  svc-telemetry --version   print the version
  svc-telemetry --help      print this help

Configuration comes from environment variables:
${configVariables.map(([name, def, what]) => `  ${name.padEnd(30)} ${what} (default ${def})`).join('\n')}
`;

function serve(): Promise<void> {
  return serveUntilSignal(
    'svc-telemetry',
    () => loadConfig(),
    (config) => startTelemetry(config, { pretty: process.stdout.isTTY === true }),
    'in-flight requests and queued writes',
  );
}

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (command === '--version' || command === '-v' || command === 'version') {
    process.stdout.write(`${telemetryVersion()}\n`);
    return;
  }
  if (command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(usage);
    return;
  }
  if (command === undefined || command === 'serve') {
    if (rest.length > 0) {
      process.stderr.write(`svc-telemetry: serve takes no arguments; configure it with environment variables.\n`);
      process.exit(2);
    }
    return serve();
  }
  process.stderr.write(`svc-telemetry: unknown command '${command}'.\n\n${usage}`);
  process.exit(2);
}

main(process.argv.slice(2)).catch((err: unknown) => {
  process.stderr.write(`svc-telemetry: failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
