import { describe, expect, it } from 'vitest';
import { compilePattern } from './schema-check.js';
import { KNOWN_DEVIATIONS, validateRequest, validateReturns } from './schema-validate.js';

describe('validateRequest (official parameters schemas)', () => {
  it('accepts a valid request and merges path parameters', () => {
    expect(validateRequest('hv', 'GET', '/api2/json/nodes/pve1/qemu', { full: '1' }).ok).toBe(true);
    expect(
      validateRequest('hv', 'GET', '/nodes/pve1/tasks', { typefilter: 'vzdump', limit: 10, errors: 'true' }).ok,
    ).toBe(true);
  });

  it('refuses unknown parameters, bad types, ranges and enums with the real messages', () => {
    const r = validateRequest('hv', 'GET', '/nodes/pve1/qemu/99/status/current', { verbose: '1' });
    expect(r).toMatchObject({
      ok: false,
      status: 400,
      errors: {
        vmid: 'value must have a minimum value of 100',
        verbose: 'property is not defined in schema and the schema does not allow additional properties',
      },
    });
    expect(validateRequest('hv', 'GET', '/nodes/pve1/qemu', { full: 'maybe' })).toMatchObject({
      errors: { full: "type check ('boolean') failed - got 'maybe'" },
    });
    expect(validateRequest('hv', 'GET', '/cluster/resources', { type: 'qemu' })).toMatchObject({
      errors: { type: "value 'qemu' does not have a value in the enumeration 'vm, storage, node, sdn'" },
    });
    expect(validateRequest('hv', 'GET', '/nodes/pve1/rrddata', {})).toMatchObject({
      errors: { timeframe: 'property is missing and it is not optional' },
    });
    expect(validateRequest('hv', 'GET', '/nodes/bad_node!/status', {})).toMatchObject({ status: 400 });
  });

  it('checks bak patterns (/.../ wrapped, POSIX classes) and list parameters', () => {
    expect(validateRequest('bak', 'GET', '/admin/datastore/ab/status', {}).ok).toBe(false);
    expect(
      validateRequest('bak', 'GET', '/admin/datastore/store1/snapshots', { 'backup-type': 'vm', 'backup-id': '100' })
        .ok,
    ).toBe(true);
    expect(validateRequest('bak', 'GET', '/nodes/localhost/tasks', { statusfilter: ['ok', 'error'] }).ok).toBe(true);
    expect(validateRequest('bak', 'GET', '/nodes/localhost/tasks', { statusfilter: ['fine'] }).ok).toBe(false);
  });

  it('enforces "requires" and answers 501 for paths the product does not have', () => {
    expect(validateRequest('mail', 'GET', '/nodes/pmg1/postfix/queue/deferred', { sortdir: 'ASC' })).toMatchObject({
      errors: { sortfield: "missing property - 'sortdir' requires this property" },
    });
    expect(validateRequest('hv', 'GET', '/cluster/ceph/df', {})).toEqual({
      ok: false,
      status: 501,
      message: "Method 'GET /cluster/ceph/df' not implemented",
    });
  });
});

describe('validateReturns (official returns schemas)', () => {
  it('catches missing fields, wrong types and integer/number confusion', () => {
    expect(validateReturns('hv', 'GET', '/nodes', [{ node: 'pve1', status: 'online', cpu: 0.1 }])).toEqual([]);
    expect(validateReturns('hv', 'GET', '/nodes', [{ status: 'up', maxmem: 1.5 }]).sort()).toEqual([
      "data[0].maxmem: type check ('integer') failed - got '1.5'",
      'data[0].node: property is missing and it is not optional',
      "data[0].status: value 'up' does not have a value in the enumeration 'unknown, online, offline'",
    ]);
  });

  it('accepts 0/1 booleans from hv and mail but only true/false from bak', () => {
    expect(
      validateReturns('hv', 'GET', '/cluster/status', [{ type: 'node', id: 'node/a', name: 'a', online: 1 }]),
    ).toEqual([]);
    const snap = { 'backup-type': 'vm', 'backup-id': '100', 'backup-time': 1, files: [], protected: 0 };
    expect(validateReturns('bak', 'GET', '/admin/datastore/s1/snapshots', [snap])).toEqual([
      "data[0].protected: type check ('boolean') failed - got '0'",
    ]);
  });

  it('refuses extra keys where bak says additionalProperties: false', () => {
    expect(validateReturns('bak', 'GET', '/version', { version: '4', release: '1', repoid: 'x', extra: 1 })).toEqual([
      'data.extra: property is not defined in schema and the schema does not allow additional properties',
    ]);
  });

  it('knows where real answers differ from the schema, and only there', () => {
    expect(KNOWN_DEVIATIONS.map((d) => `${d.kind} ${d.path} ${d.field}`)).toEqual([
      'bak /admin/datastore/{store}/snapshots items.files.items',
      'mail /statistics/spamscores items.level',
    ]);
    const real = [
      {
        'backup-type': 'vm',
        'backup-id': '100',
        'backup-time': 1,
        protected: false,
        files: [{ filename: 'index.json.blob', size: 5, 'crypt-mode': 'none' }],
      },
    ];
    expect(validateReturns('bak', 'GET', '/admin/datastore/s1/snapshots', real)).toEqual([]);
    expect(validateReturns('bak', 'GET', '/admin/datastore/s1/snapshots', real, { official: true })).toHaveLength(1);
    expect(validateReturns('mail', 'GET', '/statistics/spamscores', [{ level: 3, count: 1, ratio: 0.1 }])).toEqual([]);
    expect(
      validateReturns('mail', 'GET', '/statistics/spamscores', [{ level: 3, count: 1, ratio: 0.1 }], {
        official: true,
      }),
    ).toHaveLength(1);
  });

  it('translates Perl and Rust regex dialects', () => {
    expect(compilePattern('/^(?:[^\\s:/[:cntrl:]]+)@(?:[A-Za-z0-9_][A-Za-z0-9._\\-]*)$/')!.test('root@pam')).toBe(true);
    expect(compilePattern('/^[[:^cntrl:]]*$/')!.test('a\nb')).toBe(false);
    expect(compilePattern('/^UPID:(?P<node>[a-z]+):$/')!.test('UPID:pbs:')).toBe(true);
    expect(compilePattern('(?^:[A-Za-z][A-Za-z0-9\\.\\-_]+)')!.test('mon')).toBe(true);
    // Perl patterns are anchored by the verifier.
    expect(compilePattern('[0-9a-fA-F]{8,64}')!.test('zz12345678')).toBe(false);
  });
});
