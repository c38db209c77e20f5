import { mkdirSync } from 'node:fs';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestTelemetry } from '../src/testing/app.js';
import { report, uuid } from '../src/testing/dialects.js';
import { startService } from './client.harness.js';

const ARTIFACTS = new URL('../../../test-artifacts/', import.meta.url).pathname;
const apps = ['pihole', 'docker', 'jellyfin', 'home-assistant', 'nextcloud', 'vaultwarden'];
const errors = ['apt-get update failed', 'disk full', 'CTID already in use'];

/** 14 days of installs with a spread of apps and outcomes, one hostile app name. */
async function seed(t: TestTelemetry) {
  const post = (url: string, body: unknown) =>
    t.app.inject({
      method: 'POST',
      url,
      payload: JSON.stringify(body),
      headers: { 'content-type': 'application/json' },
    });
  t.clock.set(Date.UTC(2026, 10, 9, 8));
  let n = 0;
  for (let day = 0; day < 14; day++) {
    for (let k = 0; k < 4 + ((day * 7) % 9); k++) {
      n += 1;
      const nsapp = n === 5 ? '<img src=x onerror=alert(1)>' : apps[(n * 5) % apps.length]!;
      await post(
        '/upload',
        report(n, { nsapp, type: n % 4 === 0 ? 'vm' : 'lxc', os_type: n % 3 === 0 ? 'ubuntu' : 'debian' }),
      );
      const outcome = n % 5 === 0 ? 'failed' : n % 11 === 0 ? null : 'done';
      if (outcome)
        await post('/upload/updatestatus', {
          random_id: uuid(n),
          status: outcome,
          error: outcome === 'failed' ? errors[n % 3] : 'none',
        });
      t.clock.advance(60_000);
    }
    t.clock.advance(86_400_000 - 60_000 * 20);
  }
}

describe('dashboard in headless Chromium', () => {
  let t: TestTelemetry;
  let url: string;
  let browser: Browser;
  let page: Page;
  const errorsSeen: string[] = [];
  const api = async (path: string) => (await t.app.inject({ method: 'GET', url: path })).json();
  const idle = () => page.waitForSelector('body[data-loading="false"]');

  beforeAll(async () => {
    ({ t, url } = await startService());
    await seed(t);
    browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    page = await browser.newPage({ viewport: { width: 1280, height: 1500 } });
    page.on('pageerror', (e) => errorsSeen.push(e.message));
    page.on('dialog', (d) => {
      errorsSeen.push(`dialog: ${d.message()}`);
      void d.dismiss();
    });
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('loads and shows the numbers the API returns', async () => {
    await page.goto(url);
    await idle();
    const s = await api('/api/stats/summary');
    expect(await page.textContent('#total')).toBe(s.total.toLocaleString('en-US'));
    expect(await page.textContent('#success-rate')).toBe(`${(s.successRate * 100).toFixed(1)}%`);
    expect(await page.textContent('#failure-rate')).toBe(`${(s.failureRate * 100).toFixed(1)}%`);
    expect(await page.textContent('#failed')).toBe(String(s.failed));
    expect(await page.textContent('#in-progress')).toBe(String(s.inProgress));
    const topApps = await api('/api/stats/apps?limit=15');
    const shownApps = await page.$$eval('#apps tbody tr', (rows) =>
      rows.map((r) => [r.children[0]!.textContent, r.children[1]!.textContent]),
    );
    expect(shownApps).toEqual(topApps.map((a: { nsapp: string; total: number }) => [a.nsapp, String(a.total)]));
    const topErrors = await api('/api/stats/errors?limit=10');
    expect(await page.$$eval('#errors tbody tr td.err', (tds) => tds.map((td) => td.textContent))).toEqual(
      topErrors.map((e: { error: string }) => e.error),
    );
    const days = await api('/api/stats/days');
    expect(days).toHaveLength(14);
    expect(await page.$$eval('#chart svg rect', (r) => r.length)).toBeGreaterThanOrEqual(14);
    expect(await page.textContent('#records-total')).toContain(`(${s.total} records)`);
    expect(errorsSeen).toEqual([]);
  });

  it('filters the table by status and app, and pages through it', async () => {
    await page.selectOption('#f-status', 'failed');
    await page.click('#apply-filters');
    await idle();
    const failed = await api('/api/records?status=failed&limit=25');
    const statuses = await page.$$eval('#records tbody tr td:nth-child(2)', (tds) => tds.map((td) => td.textContent));
    expect(statuses).toHaveLength(Math.min(25, failed.total));
    expect(new Set(statuses)).toEqual(new Set(['failed']));
    expect(await page.textContent('#records-total')).toContain(`(${failed.total} records)`);

    await page.fill('#f-app', 'pihole');
    await page.click('#apply-filters');
    await idle();
    const both = await api('/api/records?status=failed&nsapp=pihole');
    const apps = await page.$$eval('#records tbody tr td:nth-child(4)', (tds) => tds.map((td) => td.textContent));
    expect(apps).toHaveLength(both.total);
    expect(new Set(apps)).toEqual(new Set(['pihole']));

    await page.click('#clear-filters');
    await idle();
    await page.click('#next');
    await page.waitForFunction("document.querySelector('#records-total')?.textContent?.startsWith('page 2')");
  });

  it('the date range changes every panel; hostile names render as text; screenshot kept', async () => {
    await page.fill('#from', '2026-11-20');
    await page.fill('#to', '2026-11-22');
    await page.click('#apply-range');
    await idle();
    const s = await api('/api/stats/summary?from=2026-11-20&to=2026-11-22');
    expect(await page.textContent('#total')).toBe(String(s.total));
    expect(
      await page.$$eval('#chart svg rect.ok, #chart svg rect.ko, #chart svg rect.other', (r) => r.length),
    ).toBeGreaterThan(0);
    await page.click('.quick button[data-days="0"]');
    await idle();
    expect(await page.textContent('#total')).toBe(String((await api('/api/stats/summary')).total));
    expect(await page.$$eval('#apps a', (as) => as.map((a) => a.textContent))).toContain(
      '<img src=x onerror=alert(1)>',
    );
    expect(await page.$('#apps img')).toBeNull();
    expect(errorsSeen).toEqual([]);
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: `${ARTIFACTS}telemetry-dashboard.png`, fullPage: true });
  });
});
