/**
 * Browser script of the dashboard, plain ES2020 with no dependencies (served as-is, no CDN, no build).
 * Data is always inserted with textContent, never as HTML: app names and error texts come from the public.
 */
export const dashboardScript = String.raw`(function () {
  'use strict';
  var STATUSES = ['installing', 'validation', 'configuring', 'failed', 'done', 'success', 'aborted', 'unknown'];
  var state = { from: '', to: '', page: 1, limit: 25, filters: { status: '', nsapp: '', type: '', os: '' } };
  var $ = function (id) { return document.getElementById(id); };
  var fmt = function (n) { return Number(n).toLocaleString('en-US'); };
  var pct = function (r) { return r === null || r === undefined ? '–' : (r * 100).toFixed(1) + '%'; };

  function el(tag, text, cls) {
    var e = document.createElement(tag);
    if (text !== undefined && text !== null) e.textContent = String(text);
    if (cls) e.className = cls;
    return e;
  }
  function row(cells) {
    var tr = document.createElement('tr');
    cells.forEach(function (c) { tr.appendChild(c); });
    return tr;
  }
  function fill(tableId, rows) {
    var body = $(tableId).querySelector('tbody');
    body.replaceChildren.apply(body, rows);
    if (rows.length === 0) body.appendChild(row([el('td', 'No data for this range.', 'empty')]));
  }
  function query(params) {
    var q = new URLSearchParams();
    Object.keys(params).forEach(function (k) { if (params[k] !== '' && params[k] !== undefined) q.set(k, params[k]); });
    var s = q.toString();
    return s ? '?' + s : '';
  }
  function get(path, params) {
    return fetch(path + query(params)).then(function (r) {
      return r.json().then(function (body) {
        if (!r.ok) throw new Error(body.message || ('HTTP ' + r.status));
        return body;
      });
    });
  }
  function range() { return { from: state.from, to: state.to }; }

  function showSummary(s) {
    $('total').textContent = fmt(s.total);
    $('success-rate').textContent = pct(s.successRate);
    $('failure-rate').textContent = pct(s.failureRate);
    $('failed').textContent = fmt(s.failed);
    $('in-progress').textContent = fmt(s.inProgress);
    $('unknown').textContent = fmt(s.unknown);
    $('orphans').textContent = fmt(s.orphanUpdates);
  }

  function showChart(days) {
    var box = $('chart');
    var NS = 'http://www.w3.org/2000/svg';
    var W = 1000, H = 200, top = 14, bottom = 20;
    var svg = document.createElementNS(NS, 'svg');
    svg.setAttribute('viewBox', '0 0 ' + W + ' ' + H);
    svg.setAttribute('preserveAspectRatio', 'none');
    svg.setAttribute('role', 'img');
    var max = days.reduce(function (m, d) { return Math.max(m, d.total); }, 0);
    svg.setAttribute('aria-label', 'Installs per day, ' + days.length + ' days, at most ' + max + ' a day');
    var bw = days.length ? W / days.length : W;
    var scale = max ? (H - top - bottom) / max : 0;
    days.forEach(function (d, i) {
      var y = H - bottom;
      [['ok', d.success], ['ko', d.failed], ['other', d.total - d.success - d.failed]].forEach(function (p) {
        if (!p[1]) return;
        var h = p[1] * scale;
        y -= h;
        var r = document.createElementNS(NS, 'rect');
        r.setAttribute('x', String(i * bw + bw * 0.1));
        r.setAttribute('width', String(Math.max(bw * 0.8, 0.5)));
        r.setAttribute('y', String(y));
        r.setAttribute('height', String(h));
        r.setAttribute('class', p[0]);
        var t = document.createElementNS(NS, 'title');
        t.textContent = d.day + ': ' + d.total + ' installs, ' + d.success + ' success, ' + d.failed + ' failed';
        r.appendChild(t);
        svg.appendChild(r);
      });
    });
    function label(x, y, text, anchor) {
      var t = document.createElementNS(NS, 'text');
      t.setAttribute('x', String(x)); t.setAttribute('y', String(y));
      t.setAttribute('text-anchor', anchor);
      t.textContent = text;
      svg.appendChild(t);
    }
    label(4, 11, 'max ' + fmt(max) + '/day', 'start');
    if (days.length) {
      label(2, H - 4, days[0].day, 'start');
      label(W - 2, H - 4, days[days.length - 1].day, 'end');
    }
    box.replaceChildren(svg);
  }

  function appLink(name) {
    var td = el('td');
    var a = el('a', name, 'app');
    a.href = '#records';
    a.addEventListener('click', function (e) {
      e.preventDefault();
      $('f-app').value = name;
      applyFilters();
    });
    td.appendChild(a);
    return td;
  }

  function showApps(apps) {
    fill('apps', apps.map(function (a) {
      return row([appLink(a.nsapp), el('td', fmt(a.total), 'n'), el('td', fmt(a.failed), 'n'), el('td', pct(a.failureRate), 'n')]);
    }));
  }
  function showErrors(errors) {
    fill('errors', errors.map(function (e) {
      var text = e.error.length > 240 ? e.error.slice(0, 240) + '…' : e.error;
      var td = el('td', text, 'err');
      td.title = e.error;
      return row([td, el('td', fmt(e.count), 'n')]);
    }));
  }
  function showOs(list) {
    fill('os', list.map(function (o) {
      return row([el('td', o.os_type || '(none)'), el('td', o.os_version || '(none)'), el('td', fmt(o.total), 'n'), el('td', pct(o.failureRate), 'n')]);
    }));
  }
  function showTypes(list) {
    fill('types', list.map(function (t) {
      return row([el('td', t.type), el('td', fmt(t.total), 'n'), el('td', pct(t.failureRate), 'n')]);
    }));
  }
  function showRecords(p) {
    fill('records', p.records.map(function (r) {
      var st = el('td');
      st.appendChild(el('span', r.status, 'badge ' + r.status));
      return row([
        el('td', r.created_at.replace('T', ' ').slice(0, 19)), st, el('td', r.type), el('td', r.nsapp),
        el('td', (r.os_type + ' ' + r.os_version).trim()), el('td', r.disk_size === null ? '' : r.disk_size, 'n'),
        el('td', r.core_count === null ? '' : r.core_count, 'n'), el('td', r.ram_size === null ? '' : r.ram_size, 'n'),
        el('td', r.method), el('td', r.error, 'err'),
      ]);
    }));
    $('records-total').textContent = 'page ' + p.page + ' of ' + Math.max(1, p.totalPages) + ' (' + fmt(p.total) + (p.totalExact ? '' : '+') + ' records)';
    $('prev').disabled = p.page <= 1;
    $('next').disabled = p.page >= p.totalPages;
  }

  function loadRecords() {
    var f = state.filters;
    var params = { from: state.from, to: state.to, page: state.page, limit: state.limit, status: f.status, nsapp: f.nsapp, type: f.type, os: f.os };
    return get('/api/records', params).then(showRecords);
  }

  function loadAll() {
    $('status').textContent = '';
    document.body.setAttribute('data-loading', 'true');
    return Promise.all([
      get('/api/stats/summary', range()).then(showSummary),
      get('/api/stats/days', range()).then(showChart),
      get('/api/stats/apps', Object.assign(range(), { limit: 15 })).then(showApps),
      get('/api/stats/errors', Object.assign(range(), { limit: 10 })).then(showErrors),
      get('/api/stats/os', Object.assign(range(), { limit: 15 })).then(showOs),
      get('/api/stats/types', range()).then(showTypes),
      loadRecords(),
    ]).catch(function (err) { $('status').textContent = 'Could not load statistics: ' + err.message; })
      .then(function () { document.body.setAttribute('data-loading', 'false'); });
  }

  function applyFilters() {
    state.filters = { status: $('f-status').value, nsapp: $('f-app').value.trim(), type: $('f-type').value, os: $('f-os').value.trim() };
    state.page = 1;
    document.body.setAttribute('data-loading', 'true');
    return loadRecords().catch(function (err) { $('status').textContent = err.message; })
      .then(function () { document.body.setAttribute('data-loading', 'false'); });
  }

  function isoDay(d) { return d.toISOString().slice(0, 10); }

  STATUSES.forEach(function (s) { $('f-status').appendChild(el('option', s)); });
  $('range').addEventListener('submit', function (e) {
    e.preventDefault();
    state.from = $('from').value; state.to = $('to').value; state.page = 1;
    loadAll();
  });
  document.querySelectorAll('.quick button').forEach(function (b) {
    b.addEventListener('click', function () {
      var days = Number(b.getAttribute('data-days'));
      if (days === 0) { state.from = ''; state.to = ''; }
      else {
        var now = new Date();
        state.to = isoDay(now);
        state.from = isoDay(new Date(now.getTime() - (days - 1) * 86400000));
      }
      $('from').value = state.from; $('to').value = state.to; state.page = 1;
      loadAll();
    });
  });
  $('filters').addEventListener('submit', function (e) { e.preventDefault(); applyFilters(); });
  $('clear-filters').addEventListener('click', function () {
    ['f-status', 'f-app', 'f-type', 'f-os'].forEach(function (id) { $(id).value = ''; });
    applyFilters();
  });
  $('prev').addEventListener('click', function () { if (state.page > 1) { state.page--; loadRecords(); } });
  $('next').addEventListener('click', function () { state.page++; loadRecords(); });
  loadAll();
})();
`;
