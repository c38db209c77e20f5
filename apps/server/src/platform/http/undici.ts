import { createRequire } from 'node:module';
import type * as Undici from 'undici';

let loaded: typeof Undici | undefined;

/** undici, loaded on first use: an installation with no nodes and no webhooks never pays its start-up cost. */
export function undici(): typeof Undici {
  loaded ??= createRequire(import.meta.url)('undici') as typeof Undici;
  return loaded;
}
