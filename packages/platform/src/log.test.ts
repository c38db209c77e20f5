import { describe, expect, it } from 'vitest';
import { createMemoryLogger, lazyChildLogger } from './log.js';

describe('lazyChildLogger', () => {
  it('writes through a child with the bindings, redaction intact, and nothing below the level', () => {
    const { logger, lines } = createMemoryLogger('info');
    const child = lazyChildLogger(logger, { reqId: 'r-1' });
    child.debug('not written');
    expect(lines()).toEqual([]);
    child.info({ password: 'hunter2', n: 1 }, 'hello');
    child.error('failed %s', 'badly');
    const [a, b] = lines().map((l) => JSON.parse(l));
    expect(a).toMatchObject({ reqId: 'r-1', msg: 'hello', n: 1, password: '[redacted]', level: 30 });
    expect(b).toMatchObject({ reqId: 'r-1', msg: 'failed badly', level: 50 });
    expect(child.isLevelEnabled('debug')).toBe(false);
    expect(child.level).toBe('info');
    expect(child.child({ extra: true }).bindings()).toMatchObject({ reqId: 'r-1', extra: true });
  });
});
