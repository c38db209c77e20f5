import { setFlagsFromString } from 'node:v8';

/** V8's own default for --semi-space-growth-factor (Node 20, V8 11.3). */
const V8_DEFAULT_GROWTH_FACTOR = 2;

/**
 * Start-up allocates a burst that mostly survives (modules, route schemas, migrations). V8 reads that as a
 * busy young generation and doubles the semi-spaces to their 2 × 16 MB maximum, which then stay resident
 * through the first idle minute (a third of svc's memory at rest). Holding the growth factor at 1 until svc
 * listens keeps the young generation at its initial size; start-up promotes a little more to the old
 * generation instead, which it keeps anyway. V8 reads the flag at each growth decision, so setting it at
 * run time takes effect.
 */
export function holdYoungGeneration(): void {
  setFlagsFromString('--semi-space-growth-factor=1');
}

/** From here on V8 sizes the young generation by the real load again (poll bursts at large estates). */
export function releaseYoungGeneration(): void {
  setFlagsFromString(`--semi-space-growth-factor=${V8_DEFAULT_GROWTH_FACTOR}`);
}
