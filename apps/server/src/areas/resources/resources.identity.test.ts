import { describe, expect, it } from 'vitest';
import { combineStatus, mergeObservations, resourceId, shortHostname } from './resources.identity.js';
import type { Observation } from './resources.model.js';

const hvNode = (name: string, extra: Partial<Observation> = {}): Observation => ({
  source: 'hv',
  sourceId: `hv1/node/${name}`,
  type: 'host',
  name,
  status: 'online',
  lastSeen: 1000,
  cluster: 'lab',
  ...extra,
});
const agentHost = (id: string, name: string, extra: Partial<Observation> = {}): Observation => ({
  source: 'agent',
  sourceId: id,
  type: 'host',
  name,
  status: 'online',
  lastSeen: 2000,
  ...extra,
});

describe('identity rules', () => {
  it('ids are stable, typed and 16 hex characters', () => {
    expect(resourceId('vm', 'hv:lab/101')).toMatch(/^vm-[0-9a-f]{16}$/);
    expect(resourceId('vm', 'hv:lab/101')).toBe(resourceId('vm', 'hv:lab/101'));
    expect(resourceId('vm', 'hv:lab/101')).not.toBe(resourceId('lxc', 'hv:lab/101'));
  });

  it('short host names ignore case and domain', () => {
    expect(shortHostname(' PVE1.lab.example.org ')).toBe('pve1');
  });

  it('merges an hv node and an agent with the same machine id, whatever their names', () => {
    const out = mergeObservations([
      hvNode('pve1', { identity: { machineId: 'ABC123' } }),
      agentHost('agent-7', 'totally-different', { identity: { machineId: 'abc123' } }),
    ]);
    expect(out).toHaveLength(1);
    expect(out[0]!.sources).toEqual(['hv', 'agent']);
    expect(out[0]!.name).toBe('pve1');
    expect(out[0]!.lastSeen).toBe(2000);
  });

  it('merges by a host name that is unique in each source', () => {
    const out = mergeObservations([hvNode('pve1'), agentHost('a1', 'pve1.lab.local'), hvNode('pve2')]);
    expect(out).toHaveLength(2);
    expect(out.find((r) => r.name === 'pve1')!.sources).toEqual(['hv', 'agent']);
  });

  it('does not merge by a host name two machines of one source share', () => {
    const out = mergeObservations([
      hvNode('node', { sourceId: 'hv1/node/node' }),
      hvNode('node', { sourceId: 'hv2/node/node' }),
      agentHost('a1', 'node'),
    ]);
    expect(out).toHaveLength(3);
  });

  it('never merges guests or storage by name', () => {
    const vm = (source: Observation['source'], id: string): Observation => ({
      source,
      sourceId: id,
      type: 'vm',
      name: 'web',
      status: 'online',
      lastSeen: 1,
    });
    expect(mergeObservations([vm('hv', 'x/100'), vm('hv', 'y/100'), vm('agent', 'z')])).toHaveLength(3);
  });

  it('a manual exclusion keeps a rule match apart, and a manual link joins unrelated ones', () => {
    const obs = [hvNode('pve1'), agentHost('a1', 'pve1'), agentHost('a2', 'other')];
    const apart = mergeObservations(obs, [{ kind: 'exclude', a: 'hv:hv1/node/pve1', b: 'agent:a1' }]);
    expect(apart).toHaveLength(3);
    const linked = mergeObservations(obs, [
      { kind: 'exclude', a: 'hv:hv1/node/pve1', b: 'agent:a1' },
      { kind: 'link', a: 'hv:hv1/node/pve1', b: 'agent:a2' },
    ]);
    expect(linked).toHaveLength(2);
    expect(linked.find((r) => r.sources.includes('hv'))!.members).toEqual(['hv:hv1/node/pve1', 'agent:a2']);
  });

  it('an exclusion also holds against a machine-id match', () => {
    const out = mergeObservations(
      [hvNode('pve1', { identity: { machineId: 'm' } }), agentHost('a1', 'x', { identity: { machineId: 'm' } })],
      [{ kind: 'exclude', a: 'agent:a1', b: 'hv:hv1/node/pve1' }],
    );
    expect(out).toHaveLength(2);
  });

  it('agent metrics win over the hypervisor view; statuses combine', () => {
    const out = mergeObservations([
      hvNode('pve1', { metrics: { cpu: 0.5, memory: 0.9 } }),
      agentHost('a1', 'pve1', { metrics: { memory: 0.4 }, status: 'offline' }),
    ]);
    expect(out[0]!.metrics).toEqual({ cpu: 0.5, memory: 0.4 });
    expect(out[0]!.status).toBe('warning');
    expect(out[0]!.sourceStatus).toEqual({ hv: 'online', agent: 'offline' });
  });

  it('parents resolve to the merged resource id; the id survives a second source joining', () => {
    const guest: Observation = {
      source: 'hv',
      sourceId: 'hv1/qemu/100',
      type: 'vm',
      name: 'web',
      status: 'online',
      lastSeen: 1,
      parentSourceId: 'hv1/node/pve1',
      stableKey: 'hv-guest:lab:100',
    };
    const alone = mergeObservations([hvNode('pve1'), guest]);
    const joined = mergeObservations([hvNode('pve1'), guest, agentHost('a1', 'pve1')]);
    const node = (rs: typeof alone) => rs.find((r) => r.type === 'host')!;
    expect(node(joined).id).toBe(node(alone).id);
    expect(joined.find((r) => r.type === 'vm')!.parentId).toBe(node(joined).id);
    expect(joined.find((r) => r.type === 'vm')!.id).toBe(resourceId('vm', 'hv-guest:lab:100'));
  });

  it('combineStatus', () => {
    expect(combineStatus([])).toBe('unknown');
    expect(combineStatus(['unknown', 'online'])).toBe('online');
    expect(combineStatus(['offline', 'offline'])).toBe('offline');
    expect(combineStatus(['online', 'offline'])).toBe('warning');
  });
});
