// `npm run oracle -w @svc/gotemplate`: builds oracle/render.go with the local Go toolchain (offline,
// stdlib only) and regenerates test/corpus.json from the cases in test/cases/.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { allCases, type Case } from '../test/cases/index.js';

export interface CorpusEntry extends Case {
  output: string;
  error?: string;
  phase?: 'parse' | 'exec';
}

const oracleDir = fileURLToPath(new URL('.', import.meta.url));
export const corpusPath = fileURLToPath(new URL('../test/corpus.json', import.meta.url));

export function goAvailable(): boolean {
  return spawnSync('go', ['version'], { stdio: 'ignore' }).status === 0;
}

/** Renders every case with Go's text/template; returns corpus entries in case order. */
export function runOracle(cases: readonly Case[] = allCases): CorpusEntry[] {
  const dir = mkdtempSync(join(tmpdir(), 'gotemplate-oracle-'));
  try {
    const bin = join(dir, 'render');
    execFileSync('go', ['build', '-o', bin, '.'], {
      cwd: oracleDir,
      env: { ...process.env, GOFLAGS: '-mod=mod', GOPATH: '/tmp/gopath', GOCACHE: '/tmp/gocache', GOPROXY: 'off' },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    const input = JSON.stringify(cases.map((c) => ({ ...c, data: c.data === undefined ? undefined : c.data })));
    const out = execFileSync(bin, { input, maxBuffer: 256 * 1024 * 1024 }).toString('utf8');
    const results = JSON.parse(out) as { name: string; output: string; error?: string; phase?: string }[];
    return cases.map((c, i) => {
      const r = results[i]!;
      if (r.name !== c.name) throw new Error(`oracle answered ${r.name} for ${c.name}`);
      if (r.phase === 'data') throw new Error(`case ${c.name}: ${r.error}`);
      const entry: CorpusEntry = { ...c, output: r.output };
      if (r.error !== undefined) Object.assign(entry, { error: r.error, phase: r.phase });
      return entry;
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function corpusText(entries: readonly CorpusEntry[]): string {
  return `${JSON.stringify(entries, null, 1)}\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const names = new Set<string>();
  for (const c of allCases) {
    if (names.has(c.name)) throw new Error(`duplicate case name ${c.name}`);
    names.add(c.name);
  }
  const entries = runOracle();
  writeFileSync(corpusPath, corpusText(entries));
  console.log(`wrote ${entries.length} cases to ${corpusPath}`);
}
