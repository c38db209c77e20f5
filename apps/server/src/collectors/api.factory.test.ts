import { describe, expect, it } from 'vitest';
import { normalizeBaseUrl } from './api.factory.js';
import { buildUrl } from './api.transport.js';

describe('endpoint URLs', () => {
  it('adds scheme and the kind default port, keeps explicit ones', () => {
    expect(normalizeBaseUrl('pve1.lan', 8006)).toBe('https://pve1.lan:8006');
    expect(normalizeBaseUrl('10.0.0.5:9000', 8007)).toBe('https://10.0.0.5:9000');
    expect(normalizeBaseUrl('http://127.0.0.1:1234/', 8006)).toBe('http://127.0.0.1:1234');
    expect(normalizeBaseUrl('https://[::1]', 8007)).toBe('https://[::1]:8007');
    expect(() => normalizeBaseUrl('ftp://x', 8006)).toThrow();
  });

  it('builds API URLs with encoded query values and 0/1 booleans', () => {
    expect(buildUrl('https://h:8006/', '/nodes/a/tasks', { typefilter: 'vzdump', limit: 50, skip: undefined })).toBe(
      'https://h:8006/api2/json/nodes/a/tasks?typefilter=vzdump&limit=50',
    );
    expect(buildUrl('https://h:8006', '/x', { file: '/proc/meminfo', full: true })).toBe(
      'https://h:8006/api2/json/x?file=%2Fproc%2Fmeminfo&full=1',
    );
  });
});
