// The committed corpus must be what the Go oracle says today for the current case sources.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { corpusPath, corpusText, goAvailable, runOracle } from '../oracle/run-oracle.js';

const hasGo = goAvailable();
if (!hasGo) console.warn('gotemplate: `go` not found; skipping the corpus freshness check (needs Debian golang-go)');

describe.skipIf(!hasGo)('Go oracle freshness (needs go)', () => {
  it('test/corpus.json matches a fresh oracle run; regenerate with `npm run oracle -w @svc/gotemplate`', () => {
    const fresh = corpusText(runOracle());
    expect(readFileSync(corpusPath, 'utf8')).toBe(fresh);
  }, 120_000);
});
