// Enforces the boundaries of DESIGN.md: import rules through dependency-cruiser (.dependency-cruiser.cjs),
// and "process.env appears only in config/" by a scan of the sources.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
let failed = false;

const cruise = spawnSync(
  process.execPath,
  [
    join(root, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs'),
    '--config',
    '.dependency-cruiser.cjs',
    '--output-type',
    'err',
    'apps',
    'packages',
  ],
  { cwd: root, encoding: 'utf8' },
);
if (cruise.status !== 0) {
  failed = true;
  process.stdout.write(cruise.stdout);
  process.stderr.write(cruise.stderr);
}

function* sources(dir) {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist') continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) yield* sources(p);
    else if (/\.(ts|mts|js|mjs)$/.test(name) && !/\.test\.ts$/.test(name)) yield p;
  }
}

const offenders = [];
for (const top of ['apps', 'packages']) {
  for (const file of sources(join(root, top))) {
    const rel = relative(root, file);
    // Product code only: dev tooling (oracles, scripts) and tests may read the environment.
    if (!/^(apps|packages)\/[^/]+\/src\//.test(rel) || /\/src\/config\//.test(rel) || /\/testing\//.test(rel)) continue;
    readFileSync(file, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        if (/process\.env\b/.test(line) && !/^\s*(\/\/|\*)/.test(line)) offenders.push(`${rel}:${i + 1}`);
      });
  }
}
if (offenders.length > 0) {
  failed = true;
  console.error(`process.env may only be read in a config/ folder; found in:\n  ${offenders.join('\n  ')}`);
}
console.log(failed ? 'boundaries: FAILED' : 'boundaries: ok');
process.exit(failed ? 1 : 0);
