// Bundles each app's entry points into an ESM file per entry plus chunks for dynamic imports (workspace
// packages and most npm dependencies inlined; see `external`). `npm install` runs this via `prepare`.
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
 * npm dependencies are compiled into the bundle, except those below. Node keeps a module record and the full
 * source text of every file it loads and resolves each one through node_modules: svc's dependencies are
 * about 800 files (kysely ~400, zod ~100, fastify with ajv ~300), which cost ~20 MB resident and ~0.4 s of
 * start-up. Inlined, only what is used is kept, once.
 * Left in node_modules: native addons, packages loaded on first use (they stay out of start-up anyway),
 * packages that read their own files at run time (pino's transport worker, swagger-ui's assets, pdfkit's
 * fonts), and optional native speed-ups that may not be installed.
 */
const external =
  /^(better-sqlite3|argon2|pg|pg-native|pino|pino-pretty|thread-stream|pdfkit|socket\.io|nodemailer|openid-client|undici|prom-client|swagger-ui-dist|playwright-core|bufferutil|utf-8-validate|smtp-server|mailparser|autocannon)(\/|$)/;

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
          // Node built-ins and the packages in `external` (see there) are imported at run time; everything
          // else, our workspace packages (@svc/*) included, is bundled.
          b.onResolve({ filter: /^[^./]/ }, (args) =>
            args.path.startsWith('node:') || external.test(args.path) ? { path: args.path, external: true } : undefined,
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
