// Bundles each app's entry points into one ESM file per entry (workspace packages inlined, npm
// dependencies left external). `npm install` runs this through the `prepare` script.
import { chmodSync, existsSync, readFileSync } from 'node:fs';
import { build } from 'esbuild';

const root = new URL('..', import.meta.url).pathname;
const pkg = JSON.parse(readFileSync(`${root}package.json`, 'utf8'));

/** app folder -> entry files (relative to the app's src/) */
const entries = {
  'apps/server': ['cli.ts'],
  'apps/telemetry': ['cli.ts'],
  'packages/hv-sim': ['cli.ts'],
};

const started = Date.now();
for (const [dir, files] of Object.entries(entries)) {
  let present;
  try {
    present = files.filter((f) => readFileSync(`${root}${dir}/src/${f}`));
  } catch {
    continue; // not written yet
  }
  await build({
    entryPoints: present.map((f) => `${root}${dir}/src/${f}`),
    outdir: `${root}${dir}/dist`,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    sourcemap: true,
    logLevel: 'warning',
    plugins: [
      {
        name: 'externals',
        setup(b) {
          // npm packages stay in node_modules; only our workspace packages (@svc/*) and relative files are bundled.
          b.onResolve({ filter: /^[^./]/ }, (args) =>
            args.path.startsWith('@svc/') ? undefined : { path: args.path, external: true },
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
