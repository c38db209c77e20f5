import type { StatePayload } from '../../state/index.js';

const esc = (s: unknown): string =>
  String(s ?? '').replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

const pct = (v: unknown): string => (typeof v === 'number' && Number.isFinite(v) ? `${(v * 100).toFixed(1)}%` : '–');

function row(cells: unknown[]): string {
  return `<tr>${cells.map((c) => `<td>${esc(c)}</td>`).join('')}</tr>`;
}

type Rec = Record<string, unknown>;

/** A dependency-free status page: counts and one table per kind, readable without JavaScript. */
export function renderSimpleStats(state: StatePayload, mockMode: boolean, now: number): string {
  const nodes = state.nodes as unknown as Rec[];
  const guests = [...(state.vms as unknown as Rec[]), ...(state.containers as unknown as Rec[])];
  const storage = state.storage as unknown as Rec[];
  const online = (xs: Rec[]) => xs.filter((x) => x.status === 'online' || x.status === 'running').length;
  const updated = state.lastUpdate ? new Date(state.lastUpdate).toISOString() : 'never';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="30">
<title>svc status</title>
<style>body{font:14px system-ui,sans-serif;margin:2rem;color:#222}table{border-collapse:collapse;margin:0 0 2rem}
td,th{padding:.25rem .75rem;border-bottom:1px solid #ddd;text-align:left}.mock{background:#fde68a;padding:.5rem}</style>
</head><body>
<h1>svc status</h1>
${mockMode ? '<p class="mock"><strong>Mock mode:</strong> this is a simulated estate, not your infrastructure.</p>' : ''}
<p>${nodes.length} nodes (${online(nodes)} online) · ${guests.length} guests (${online(guests)} running) · ${storage.length} storage · last update ${esc(updated)} · page built ${esc(new Date(now).toISOString())}</p>
<h2>Nodes</h2>
<table><tr><th>Name</th><th>Instance</th><th>Status</th><th>CPU</th><th>Memory</th></tr>
${nodes.map((n) => row([n.name, n.instance, n.status, pct(n.cpu), pct((n.memory as Rec | undefined)?.usage)])).join('\n')}
</table>
<h2>Guests</h2>
<table><tr><th>Name</th><th>ID</th><th>Type</th><th>Node</th><th>Status</th><th>CPU</th></tr>
${guests.map((g) => row([g.name, g.vmid, g.type, g.node, g.status, pct(g.cpu)])).join('\n')}
</table>
</body></html>
`;
}
