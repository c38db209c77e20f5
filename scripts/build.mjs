// Bundles each app's entry points into an ESM file per entry plus chunks for dynamic imports (workspace
// packages inlined, npm dependencies left external). `npm install` runs this through the `prepare` script.
import { chmodSync, existsSync, readFileSync, rmSync } from 'node:fs';
import { build } from 'esbuild';

const root = new URL('..', import.meta.url).pathname;
const pkg = JSON.parse(readFileSync(`${root}package.json`, 'utf8'));

/** app folder -> entry files (relative to the app's src/) */
const entries = {
  'apps/server': ['cli.ts'],
  'apps/telemetry': ['cli.ts'],
  'packages/hv-sim': ['cli.ts'],
};

/**
 * Dependencies compiled into the bundle instead of loaded from node_modules: pure ESM spread over hundreds
 * of files (kysely ~400, zod ~100). Node keeps a module record, a loader job and the full source text of
 * every file it loads; inlined, only what svc uses is kept, once. Loading them from node_modules cost about
 * 12 MB (kysely) and 7 MB (zod) of resident memory at rest.
 */
const inline = /^(kysely|zod)(\/|$)/;

const started = Date.now();
for (const [dir, files] of Object.entries(entries)) {
  let present;
  try {
    present = files.filter((f) => readFileSync(`${root}${dir}/src/${f}`));
  } catch {
    continue; // not written yet
  }
  // Chunk names carry content hashes: without a clean folder, old chunks would pile up.
  rmSync(`${root}${dir}/dist`, { recursive: true, force: true });
  await build({
    entryPoints: present.map((f) => `${root}${dir}/src/${f}`),
    outdir: `${root}${dir}/dist`,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    // Dynamic imports of our own modules become chunks loaded on first use (svc's cli.ts relies on this to
    // set V8 flags before any dependency loads; rarely used commands and areas cost nothing until used).
    // (Only the server: the telemetry writer thread re-runs the file it was started from.)
    splitting: dir === 'apps/server',
    chunkNames: 'chunks/[name]-[hash]',
    // Whitespace and syntax only: names stay, so stack traces still say which function failed, and the
    // source map maps positions back. V8 keeps every module's source in memory; this halves ours.
    minifyWhitespace: true,
    minifySyntax: true,
    charset: 'ascii',
    sourcemap: true,
    logLevel: 'warning',
    plugins: [
      {
        name: 'externals',
        setup(b) {
          // npm packages stay in node_modules, except the pure-ESM ones in `inline` (see there); our workspace
          // packages (@svc/*) and relative files are bundled.
          b.onResolve({ filter: /^[^./]/ }, (args) =>
            args.path.startsWith('@svc/') || inline.test(args.path) ? undefined : { path: args.path, external: true },
          );
        },
      },
    ],
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
    define: {
      __SVC_VERSION__: JSON.stringify(pkg.version),
      __SVC_BUILD_TIME__: JSON.stringify(new Date().toISOString().replace(/\.\d{3}Z$/, 'Z')),
    },
  });
}
for (const [dir] of Object.entries(entries))
  if (existsSync(`${root}${dir}/dist/cli.js`)) chmodSync(`${root}${dir}/dist/cli.js`, 0o755);
console.log(`build: done in ${Date.now() - started} ms`);
