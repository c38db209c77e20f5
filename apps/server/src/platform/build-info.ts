import { readFileSync } from 'node:fs';

export interface BuildInfo {
  version: string;
  buildTime: string;
}

// Replaced by the bundler at build time (scripts/build.mjs); absent when running from source.
declare const __SVC_VERSION__: string | undefined;
declare const __SVC_BUILD_TIME__: string | undefined;

export function buildInfo(): BuildInfo {
  if (typeof __SVC_VERSION__ === 'string' && typeof __SVC_BUILD_TIME__ === 'string') {
    return { version: __SVC_VERSION__, buildTime: __SVC_BUILD_TIME__ };
  }
  const pkg = JSON.parse(readFileSync(new URL('../../../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  return { version: pkg.version, buildTime: new Date(0).toISOString() };
}
