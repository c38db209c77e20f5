// `npm run bench -- <name> [args]`: runs bench/<name>.bench.ts. Without a name, lists the benchmarks.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';

const dir = new URL('.', import.meta.url).pathname;
const available = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .map((f) => f.replace(/\.bench\.ts$/, ''))
  .sort();
const [name, ...args] = process.argv.slice(2);
if (!name || !available.includes(name)) {
  if (name) console.error(`No benchmark named ${name}.`);
  console.log(`Usage: npm run bench -- <name>\nBenchmarks: ${available.join(', ')}`);
  process.exit(name ? 2 : 0);
}
const r = spawnSync(process.execPath, ['--import', 'tsx', `${dir}${name}.bench.ts`, ...args], { stdio: 'inherit' });
process.exit(r.status ?? 1);
