import type { Resource } from '../resources/index.js';

type MetricKey = keyof NonNullable<Resource['metrics']>;

/** Resource gauges: name, help, and the resource metric they read. Units follow Prometheus naming. */
const gauges: [MetricKey, string, string][] = [
  ['cpu', 'svc_resource_cpu_percent', 'CPU usage in percent'],
  ['memory', 'svc_resource_memory_percent', 'Memory usage in percent'],
  ['disk', 'svc_resource_disk_percent', 'Disk or storage usage in percent'],
  ['netin', 'svc_resource_network_receive_bytes_per_second', 'Network bytes received per second'],
  ['netout', 'svc_resource_network_transmit_bytes_per_second', 'Network bytes sent per second'],
  ['diskread', 'svc_resource_disk_read_bytes_per_second', 'Disk bytes read per second'],
  ['diskwrite', 'svc_resource_disk_write_bytes_per_second', 'Disk bytes written per second'],
];

/** Label values escape backslash, double quote and newline (text format 0.0.4). */
const esc = (v: string) => v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');

function labels(r: Resource, node: string): string {
  return `id="${esc(r.id)}",name="${esc(r.name)}",type="${r.type}",node="${esc(node)}",cluster="${esc(r.cluster ?? '')}"`;
}

/** Every resource's current values; `node` is the host's own name for hosts, else its parent's name. */
export function renderResources(all: readonly Resource[]): string {
  const byId = new Map(all.map((r) => [r.id, r]));
  const labelOf = new Map<string, string>();
  for (const r of all) {
    const node = r.type === 'host' ? r.name : r.parentId ? (byId.get(r.parentId)?.name ?? '') : '';
    labelOf.set(r.id, labels(r, node));
  }
  const out: string[] = [];
  out.push('# HELP svc_resource_up 1 when the resource is online, 0 otherwise');
  out.push('# TYPE svc_resource_up gauge');
  for (const r of all) out.push(`svc_resource_up{${labelOf.get(r.id)}} ${r.status === 'online' ? 1 : 0}`);
  out.push('# HELP svc_resource_info Resource status and sources; always 1');
  out.push('# TYPE svc_resource_info gauge');
  for (const r of all)
    out.push(`svc_resource_info{${labelOf.get(r.id)},status="${r.status}",sources="${r.sources.join(',')}"} 1`);
  for (const [key, name, help] of gauges) {
    out.push(`# HELP ${name} ${help}`);
    out.push(`# TYPE ${name} gauge`);
    for (const r of all) {
      const v = r.metrics?.[key];
      if (v !== undefined && Number.isFinite(v)) out.push(`${name}{${labelOf.get(r.id)}} ${v}`);
    }
  }
  out.push('# HELP svc_resources Resources known to svc');
  out.push('# TYPE svc_resources gauge');
  out.push(`svc_resources ${all.length}`);
  return `${out.join('\n')}\n`;
}
