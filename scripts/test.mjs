// `npm test`: build, type-check, lint, boundaries, then every vitest suite. Each check counts as one test;
// the last line is `N passed, N failed` (CI reads it). Exit code 1 when anything failed.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const bin = (name) => join(root, 'node_modules/.bin', name);
const started = Date.now();
let passed = 0;
let failed = 0;
const failures = [];

function step(name, cmd, args) {
  const t0 = Date.now();
  console.log(`\n== ${name}: ${[cmd, ...args].map((a) => a.replace(root, '')).join(' ')}`);
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: process.env });
  const ok = r.status === 0;
  console.log(`== ${name}: ${ok ? 'ok' : `FAILED (exit ${r.status})`} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  return ok;
}

function check(name, cmd, args) {
  if (step(name, cmd, args)) passed += 1;
  else {
    failed += 1;
    failures.push(name);
  }
}

check('build', process.execPath, [join(root, 'scripts/build.mjs')]);
check('typecheck', bin('tsc'), ['-p', 'tsconfig.json', '--noEmit']);
check('lint', bin('biome'), ['ci', '--reporter=summary', '.']);
check('boundaries', process.execPath, [join(root, 'scripts/check-boundaries.mjs')]);

const out = join(root, '.tmp/vitest.json');
mkdirSync(join(root, '.tmp'), { recursive: true });
rmSync(out, { force: true });
const vitestOk = step('vitest', bin('vitest'), [
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${out}`,
]);
try {
  const report = JSON.parse(readFileSync(out, 'utf8'));
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  for (const suite of report.testResults ?? []) {
    for (const t of suite.assertionResults ?? []) {
      if (t.status === 'failed') failures.push(`${suite.name.replace(root, '')} > ${t.fullName}`);
    }
    // A file that fails to load has no assertion results but still failed.
    if (suite.status === 'failed' && (suite.assertionResults ?? []).length === 0) {
      failed += 1;
      failures.push(`${suite.name.replace(root, '')} (did not run: ${String(suite.message).split('\n')[0]})`);
    }
  }
  if (!vitestOk && report.numFailedTests === 0 && failures.length === 0) {
    failed += 1;
    failures.push('vitest exited with an error outside any test');
  }
} catch {
  failed += 1;
  failures.push('vitest produced no report');
}

if (failures.length > 0) console.log(`\nFailed:\n  ${failures.join('\n  ')}`);
console.log(`\nnpm test took ${((Date.now() - started) / 1000).toFixed(0)} s`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
