import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Scope } from '@svc/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '../../platform/http/principal.js';
import { createTestApp, type TestApp } from '../../testing/app.js';
import { recordMetrics } from '../../testing/estate.js';

const URL = '/api/admin/reports/generate';

function tokenWith(scopes: Scope[]): () => Promise<Principal> {
  return async () => ({ kind: 'token', username: 't', isAdmin: false, scopes, orgId: 'default' });
}

describe('reports', () => {
  let t: TestApp;
  let unlicensed: TestApp;
  const dir = mkdtempSync(join(tmpdir(), 'svc-report-'));
  beforeAll(async () => {
    t = await createTestApp({ overrides: { authenticate: tokenWith(['settings:read']), hasFeature: () => true } });
    unlicensed = await createTestApp({
      overrides: { authenticate: tokenWith(['settings:read']), hasFeature: () => false },
    });
    const now = t.clock.now();
    const points = [];
    for (let i = 0; i < 2880; i++) {
      const timestamp = now - 2 * 86_400_000 + i * 60_000;
      const base = { orgId: 'default', resourceType: 'node' as const, resourceId: 'hv1-pve1', timestamp };
      points.push({ ...base, metric: 'cpu' as const, value: 20 + (i % 60) });
      points.push({ ...base, metric: 'temperature' as const, value: 40 + (i % 10) });
    }
    await recordMetrics(t.db, t.clock, points);
  });
  afterAll(async () => {
    await t.close();
    await unlicensed.close();
  });

  it('PDF: title, period, resource, summary and one chart per metric; renders and its text extracts', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `${URL}?resourceType=node&resourceId=hv1-pve1&title=${encodeURIComponent('Weekly → pve1 report')}`,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toMatch(/attachment; filename="svc-report-node-hv1-pve1-.*\.pdf"/);
    const pdf = join(dir, 'report.pdf');
    writeFileSync(pdf, res.rawPayload);
    const info = execFileSync('pdfinfo', [pdf], { encoding: 'utf8' });
    const pages = Number(/Pages:\s+(\d+)/.exec(info)![1]);
    expect(pages).toBe(1);
    expect(execFileSync('pdffonts', [pdf], { encoding: 'utf8' })).toMatch(/DejaVuSans/);
    const text = execFileSync('pdftotext', ['-layout', pdf, '-'], { encoding: 'utf8' });
    expect(text).toContain('Weekly → pve1 report');
    expect(text).toMatch(/Period: 2026-11-21T12:00:00Z → 2026-11-22T12:00:00Z/);
    expect(text).toContain('Resource: node hv1-pve1');
    expect(text).toMatch(/temperature\s+°C\s+40\.00\s+44\.\d\d\s+49\.00/);
    expect(text).toMatch(/cpu\s+%\s+20\.00/);
    execFileSync('pdftoppm', ['-png', '-r', '50', pdf, join(dir, 'page')]);
    expect(readdirSync(dir).filter((f) => f.startsWith('page')).length).toBe(pages);
  });

  it('CSV: one row per point within the period, for one metric', async () => {
    const end = new Date(t.clock.now() - 3_600_000).toISOString();
    const start = new Date(t.clock.now() - 5 * 3_600_000).toISOString();
    const res = await t.app.inject({
      method: 'GET',
      url: `${URL}?format=csv&resourceType=node&resourceId=hv1-pve1&metricType=temperature&start=${start}&end=${end}`,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    const lines = res.body.trim().split('\n');
    expect(lines[0]).toBe('timestamp,resource_type,resource_id,metric,unit,avg,min,max');
    expect(lines.length - 1).toBeGreaterThan(100);
    for (const l of lines.slice(1)) {
      const [ts, type, id, metric, unit] = l.split(',');
      expect(Date.parse(ts!)).toBeGreaterThanOrEqual(Date.parse(start));
      expect(Date.parse(ts!)).toBeLessThanOrEqual(Date.parse(end));
      expect([type, id, metric, unit]).toEqual(['node', 'hv1-pve1', 'temperature', '°C']);
    }
  });

  it.each([
    ['resourceType=node&resourceId=x&format=xml', 'format'],
    ['resourceId=x', 'resourceType'],
    ['resourceType=node&resourceId=x&start=yesterday', 'start'],
    ['resourceType=node&resourceId=x&start=2026-11-22T11:00:00Z&end=2026-11-22T10:00:00Z', 'start'],
    ['resourceType=node&resourceId=x&metricType=banana', 'metricType'],
  ])('400 for %s naming %s', async (query, field) => {
    const res = await t.app.inject({ method: 'GET', url: `${URL}?${query}` });
    expect(res.statusCode).toBe(400);
    expect(res.json().details.issues[0].field).toBe(field);
  });

  it('402 without advanced_reporting', async () => {
    const res = await unlicensed.app.inject({ method: 'GET', url: `${URL}?resourceType=node&resourceId=hv1-pve1` });
    expect(res.statusCode).toBe(402);
    expect(res.json()).toMatchObject({ error: 'license_required', details: { feature: 'advanced_reporting' } });
  });
});
