export const dashboardStyle = `
:root { --bg:#f6f7f9; --fg:#1d2330; --muted:#667085; --ok:#1f9d55; --ko:#d64545; --other:#9aa4b2; --card:#fff; --line:#e4e7ec; }
* { box-sizing: border-box; }
body { margin:0; font:14px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; background:var(--bg); color:var(--fg); }
header { display:flex; flex-wrap:wrap; gap:12px; align-items:center; justify-content:space-between; padding:12px 20px; background:#fff; border-bottom:1px solid var(--line); }
h1 { font-size:20px; margin:0; }
h2 { font-size:15px; margin:0 0 8px; }
form { display:flex; flex-wrap:wrap; gap:8px; align-items:center; }
input, select, button { font:inherit; padding:4px 8px; border:1px solid var(--line); border-radius:6px; background:#fff; }
button { cursor:pointer; }
button:hover { background:#eef2f6; }
main { padding:16px 20px; display:flex; flex-direction:column; gap:16px; }
.cards { display:grid; grid-template-columns:repeat(auto-fit, minmax(140px, 1fr)); gap:12px; }
.card { background:var(--card); border:1px solid var(--line); border-radius:10px; padding:12px; display:flex; flex-direction:column; }
.card .label { color:var(--muted); font-size:12px; }
.card .value { font-size:24px; font-weight:600; }
.card.good .value { color:var(--ok); } .card.bad .value { color:var(--ko); }
.panel { background:var(--card); border:1px solid var(--line); border-radius:10px; padding:12px; overflow:auto; }
.columns { display:grid; grid-template-columns:1fr 1fr; gap:16px; }
@media (max-width: 900px) { .columns { grid-template-columns:1fr; } }
table { width:100%; border-collapse:collapse; }
th, td { text-align:left; padding:4px 6px; border-bottom:1px solid var(--line); vertical-align:top; }
th { color:var(--muted); font-weight:500; font-size:12px; }
.n { text-align:right; font-variant-numeric:tabular-nums; }
td.err { max-width:420px; white-space:pre-wrap; word-break:break-word; font-family:ui-monospace, monospace; font-size:12px; }
.badge { padding:1px 6px; border-radius:8px; font-size:12px; background:#eef2f6; }
.badge.success, .badge.done { background:#dcf5e6; color:#146c3a; }
.badge.failed { background:#fde2e2; color:#a12c2c; }
.badge.aborted { background:#fff0d6; color:#8a5a00; }
a.app { color:inherit; }
.legend i { display:inline-block; width:10px; height:10px; margin:0 4px 0 10px; border-radius:2px; }
.legend .ok, rect.ok { background:var(--ok); fill:var(--ok); }
.legend .ko, rect.ko { background:var(--ko); fill:var(--ko); }
.legend .other, rect.other { background:var(--other); fill:var(--other); }
#chart svg { width:100%; height:200px; display:block; }
#chart text { font-size:11px; fill:var(--muted); }
.pager { display:flex; gap:12px; align-items:center; justify-content:flex-end; margin-top:8px; }
#status { margin:0; color:var(--ko); min-height:0; }
footer { padding:12px 20px; color:var(--muted); font-size:12px; }
`;
