import { serveUntilSignal } from '@svc/platform';
import { configVariables, loadConfig } from './config/index.js';
import { startServer } from './main.js';
import { buildInfo } from './platform/build-info.js';

const usage = `svc — infrastructure monitoring for hypervisor clusters

Usage:
  svc [serve]        start the server (default command)
  svc admin reset-password [--username NAME] [--password-stdin]
                     set a user's password in the configured database (locked-out operators)
  svc admin create-token --name NAME --scopes SCOPE[,SCOPE...]
                     create an API token and print it once
  svc template render --template FILE|- --data FILE
                     render a webhook template offline, exactly as live sends do
  svc --version      print the version
  svc --help         print this help

Configuration comes from environment variables:
${configVariables.map(([name, def, what]) => `  ${name.padEnd(22)} ${what} (default ${def})`).join('\n')}
`;

function serve(): Promise<void> {
  return serveUntilSignal(
    'svc',
    () => loadConfig(),
    (config) => startServer(config, { pretty: process.stdout.isTTY === true }),
  );
}

async function dispatch(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (command === '--version' || command === '-v' || command === 'version') {
    process.stdout.write(`${buildInfo().version}\n`);
    return;
  }
  if (command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(usage);
    return;
  }
  if (command === 'template') {
    const { runTemplateCommand, processRenderIo } = await import('./template-render.js');
    process.exitCode = runTemplateCommand(rest, processRenderIo);
    return;
  }
  if (command === 'admin') {
    const config = loadConfig();
    const { runAdmin, processIo } = await import('./admin.js');
    process.exitCode = await runAdmin(config, rest, processIo).catch((err: unknown) => {
      process.stderr.write(`svc admin: ${err instanceof Error ? err.message : String(err)}\n`);
      return 1;
    });
    return;
  }
  if (command === undefined || command === 'serve') {
    if (rest.length > 0) {
      process.stderr.write(
        `svc: serve takes no arguments (got ${rest.join(' ')}); configure it with environment variables.\n`,
      );
      process.exit(2);
    }
    return serve();
  }
  process.stderr.write(`svc: unknown command '${command}'.\n\n${usage}`);
  process.exit(2);
}

/** The `svc` command line: parses argv and runs the command. */
export function runCli(argv: string[]): Promise<void> {
  return dispatch(argv).catch((err: unknown) => {
    process.stderr.write(`svc: failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
