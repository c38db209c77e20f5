import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { onAbort } from './abort-fanout.js';

describe('onAbort', () => {
  it('calls each watcher once on abort, skips unsubscribed ones, and puts one listener on the signal', () => {
    const ctl = new AbortController();
    const calls: string[] = [];
    onAbort(ctl.signal, () => calls.push('a'));
    const stopB = onAbort(ctl.signal, () => calls.push('b'));
    onAbort(ctl.signal, () => calls.push('c'));
    expect(getEventListeners(ctl.signal, 'abort')).toHaveLength(1);
    stopB();
    ctl.abort();
    ctl.abort();
    expect(calls).toEqual(['a', 'c']);
  });
});
