#!/usr/bin/env node
import { applyStartupHeapFlags } from './platform/heap.js';

applyStartupHeapFlags();
// Everything else is loaded only now: the build splits this dynamic import into its own chunk, so no
// dependency's module code runs before the flag above is set.
const { runCli } = await import('./cli.commands.js');
await runCli(process.argv.slice(2));
