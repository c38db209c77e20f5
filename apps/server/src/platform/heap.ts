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
export function applyStartupHeapFlags(): void {
  setFlagsFromString('--semi-space-growth-factor=1');
  // A server idles between bursts. By default V8 throws away the bytecode of functions unused for a few
  // garbage collections, and an idle minute is enough for the whole request path: the next burst then
  // runs re-parsed, unoptimised code for a while (measured: ~0.65 of the warm throughput for tens of
  // seconds after 30 s of idling, against ~0.8 with bytecode kept). The cost is the bytecode of code
  // that ran once, under 2 MB here.
  setFlagsFromString('--no-flush-bytecode');
}

/** From here on V8 sizes the young generation by the real load again (poll bursts at large estates). */
export function releaseYoungGeneration(): void {
  setFlagsFromString(`--semi-space-growth-factor=${V8_DEFAULT_GROWTH_FACTOR}`);
}
