import { describe, expect, it } from 'vitest';
import { parseCli } from './cli.args.js';

describe('svc-hv-sim flags', () => {
  it('parses the README example', () => {
    const o = parseCli([
      '--kind',
      'hv',
      '--nodes',
      '3',
      '--guests-per-node',
      '20',
      '--cluster',
      'demo',
      '--token',
      'svc@pve!mon=secret',
    ]);
    expect(o).toMatchObject({
      kind: 'hv',
      port: 8006,
      host: '127.0.0.1',
      nodes: 3,
      guestsPerNode: 20,
      cluster: 'demo',
      strict: true,
    });
    expect(o.tokens).toEqual([{ tokenId: 'svc@pve!mon', secret: 'secret' }]);
  });

  it('defaults bak to 8007 and takes users, tls, seed and port 0', () => {
    const o = parseCli([
      '--kind',
      'bak',
      '--user',
      'svc@pbs',
      '--password',
      'pw',
      '--tls',
      '--seed',
      '42',
      '--port',
      '0',
    ]);
    expect(o).toMatchObject({
      kind: 'bak',
      port: 0,
      tls: true,
      seed: '42',
      users: [{ username: 'svc@pbs', password: 'pw' }],
    });
    expect(parseCli(['--kind', 'bak', '--user', 'a@pbs', '--password', 'b']).port).toBe(8007);
  });

  it('refuses bad input with a clear message', () => {
    expect(() => parseCli(['--kind', 'xen', '--token', 'a@b!c=d'])).toThrow(/--kind must be hv, bak or mail/);
    expect(() => parseCli(['--kind', 'hv'])).toThrow(/--token and\/or --user/);
    expect(() => parseCli(['--kind', 'mail', '--token', 'a@pmg!c=d'])).toThrow(/no API tokens/);
    expect(() => parseCli(['--kind', 'hv', '--user', 'a@pve'])).toThrow(/go together/);
    expect(() => parseCli(['--kind', 'hv', '--nodes', '-1', '--token', 'a@b!c=d'])).toThrow(/--nodes/);
  });
});
