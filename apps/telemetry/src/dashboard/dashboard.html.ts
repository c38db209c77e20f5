/** The dashboard page: static markup, filled by dashboard.js from the public statistics API. */
export const dashboardHtml = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>svc telemetry — install statistics</title>
<link rel="stylesheet" href="/dashboard.css">
</head>
<body>
<header>
  <h1>Install statistics</h1>
  <form id="range" autocomplete="off">
    <label>From <input type="date" id="from"></label>
    <label>To <input type="date" id="to"></label>
    <button type="submit" id="apply-range">Apply</button>
    <span class="quick">
      <button type="button" data-days="7">7 days</button>
      <button type="button" data-days="30">30 days</button>
      <button type="button" data-days="90">90 days</button>
      <button type="button" data-days="365">1 year</button>
      <button type="button" data-days="0">All</button>
    </span>
  </form>
</header>
<main>
  <p id="status" role="status"></p>
  <section class="cards">
    <div class="card"><span class="label">Installs</span><span class="value" id="total">–</span></div>
    <div class="card good"><span class="label">Success rate</span><span class="value" id="success-rate">–</span></div>
    <div class="card bad"><span class="label">Failure rate</span><span class="value" id="failure-rate">–</span></div>
    <div class="card"><span class="label">Failed</span><span class="value" id="failed">–</span></div>
    <div class="card"><span class="label">In progress</span><span class="value" id="in-progress">–</span></div>
    <div class="card"><span class="label">Unknown outcome</span><span class="value" id="unknown">–</span></div>
    <div class="card"><span class="label" title="Status updates for installs whose first report never arrived">Orphan updates</span><span class="value" id="orphans">–</span></div>
  </section>
  <section class="panel wide">
    <h2>Installs per day <small class="legend"><i class="ok"></i>success <i class="ko"></i>failed <i class="other"></i>other</small></h2>
    <div id="chart"></div>
  </section>
  <div class="columns">
    <section class="panel">
      <h2>Top applications</h2>
      <table id="apps"><thead><tr><th>Application</th><th class="n">Installs</th><th class="n">Failed</th><th class="n">Failure rate</th></tr></thead><tbody></tbody></table>
    </section>
    <section class="panel">
      <h2>Top failures</h2>
      <table id="errors"><thead><tr><th>Error</th><th class="n">Count</th></tr></thead><tbody></tbody></table>
    </section>
  </div>
  <div class="columns">
    <section class="panel">
      <h2>Operating systems</h2>
      <table id="os"><thead><tr><th>OS</th><th>Version</th><th class="n">Installs</th><th class="n">Failure rate</th></tr></thead><tbody></tbody></table>
    </section>
    <section class="panel">
      <h2>Types</h2>
      <table id="types"><thead><tr><th>Type</th><th class="n">Installs</th><th class="n">Failure rate</th></tr></thead><tbody></tbody></table>
    </section>
  </div>
  <section class="panel wide">
    <h2>Installations</h2>
    <form id="filters" autocomplete="off">
      <label>Status <select id="f-status"><option value="">any</option></select></label>
      <label>Application <input id="f-app" placeholder="exact name"></label>
      <label>Type <select id="f-type"><option value="">any</option><option>lxc</option><option>vm</option></select></label>
      <label>OS <input id="f-os" placeholder="e.g. debian"></label>
      <button type="submit" id="apply-filters">Filter</button>
      <button type="button" id="clear-filters">Clear</button>
    </form>
    <table id="records"><thead><tr><th>Created (UTC)</th><th>Status</th><th>Type</th><th>Application</th><th>OS</th><th class="n">Disk GB</th><th class="n">Cores</th><th class="n">RAM MiB</th><th>Method</th><th>Error</th></tr></thead><tbody></tbody></table>
    <nav class="pager"><button type="button" id="prev">Previous</button><span id="records-total"></span><button type="button" id="next">Next</button></nav>
  </section>
</main>
<footer>Anonymous data sent by installer scripts with diagnostics enabled. <a href="/api/openapi.json">API</a></footer>
<script src="/dashboard.js"></script>
</body>
</html>
`;
