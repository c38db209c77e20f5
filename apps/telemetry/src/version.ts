import { readFileSync } from 'node:fs';

// Replaced by the bundler at build time (scripts/build.mjs); absent when running from source.
declare const __SVC_VERSION__: string | undefined;

export function telemetryVersion(): string {
  if (typeof __SVC_VERSION__ === 'string') return __SVC_VERSION__;
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}
