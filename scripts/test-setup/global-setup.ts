import { execFileSync } from 'node:child_process';
import { createServer } from 'node:net';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** URL of a PostgreSQL server for store tests; each test file creates its own database in it. */
    pgUrl: string;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const addr = s.address();
      s.close(() => (addr && typeof addr === 'object' ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

/**
 * Starts one throwaway PostgreSQL for the whole run (or uses SVC_TEST_PG_URL when set), so store suites
 * run against both SQLite and a real PostgreSQL server.
 */
export default async function setup(project: TestProject) {
  const given = process.env.SVC_TEST_PG_URL;
  if (given) {
    project.provide('pgUrl', given);
    return;
  }
  const port = await freePort();
  const script = new URL('../pg-throwaway.sh', import.meta.url).pathname;
  let dir: string;
  try {
    dir = execFileSync('sh', [script], { env: { ...process.env, PGPORT: String(port) }, encoding: 'utf8' }).trim();
  } catch (err) {
    throw new Error(
      `Could not start a throwaway PostgreSQL for the store tests (needs root and Debian's postgresql package; .ci/run installs it). ${String(err)}`,
    );
  }
  project.provide('pgUrl', `postgres://postgres@127.0.0.1:${port}/postgres`);
  return () => {
    execFileSync('sh', [script, 'stop', dir]);
  };
}
