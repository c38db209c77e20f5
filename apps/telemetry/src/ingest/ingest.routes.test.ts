import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TestTelemetry } from '../testing/app.js';
import { dialects, report, telemetryOn, uuid } from '../testing/dialects.js';

describe.each(dialects)('ingest on %s', (dialect) => {
  let t: TestTelemetry;
  beforeEach(async () => {
    t = await telemetryOn(dialect, { env: { SVC_TELEMETRY_RATE_LIMIT: '0' } });
  });
  afterEach(() => t.close());

  const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'POST',
      url,
      payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
      headers: { 'content-type': 'application/json', ...headers },
    });
  const record = async (n: number) =>
    (await t.app.inject({ method: 'GET', url: `/api/records?limit=100` }))
      .json()
      .records.find((r: { random_id: string }) => r.random_id === uuid(n));

  it('stores a report (201) and keeps every field', async () => {
    const res = await post('/upload', report(1));
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ random_id: uuid(1), status: 'installing' });
    expect(await record(1)).toMatchObject({
      ct_type: 1,
      type: 'lxc',
      disk_size: 8,
      core_count: 2,
      ram_size: 2048,
      os_type: 'debian',
      os_version: '12',
      disableip6: 'no',
      nsapp: 'pihole',
      method: 'default',
      hv_version: '8.3.2',
      status: 'installing',
      error: '',
      created_at: '2026-11-22T12:00:00.000Z',
    });
  });

  it('accepts numeric strings, a trailing G with decimals, null numbers and ignores unknown fields', async () => {
    const res = await post(
      '/upload',
      report(2, {
        ct_type: '2',
        type: 'vm',
        disk_size: '8.5G',
        core_count: ' 4 ',
        ram_size: null,
        hn: 'my-host',
        x: [1],
      }),
    );
    expect(res.statusCode).toBe(201);
    expect(await record(2)).toMatchObject({ ct_type: 2, disk_size: 8.5, core_count: 4, ram_size: null });
    expect(JSON.stringify(await record(2))).not.toContain('my-host');
  });

  it('accepts reports without the sizing and text fields (stored as null and empty)', async () => {
    const res = await post('/upload', { random_id: uuid(19), type: 'vm', nsapp: 'opnsense-vm' });
    expect(res.statusCode).toBe(201);
    expect(await record(19)).toMatchObject({
      ct_type: null,
      disk_size: null,
      core_count: null,
      ram_size: null,
      os_type: '',
      method: '',
    });
  });

  it('defaults status to installing and takes pve_version from original clients', async () => {
    const { status: _s, hv_version: _h, ...rest } = report(3);
    expect((await post('/upload', { ...rest, pve_version: '8.2.4' })).statusCode).toBe(201);
    expect(await record(3)).toMatchObject({ status: 'installing', hv_version: '8.2.4' });
    expect((await post('/upload', report(4, { hv_version: 'not found' }))).statusCode).toBe(201);
    expect((await record(4)).hv_version).toBe('');
  });

  it('repairs the two JSON mistakes of the original bash client: 32G and an empty number', async () => {
    const body = JSON.stringify(report(5, { disk_size: 0, ram_size: 0 }))
      .replace('"disk_size":0', '"disk_size": 32G')
      .replace('"ram_size":0', '"ram_size": ');
    const res = await post('/upload', body);
    expect(res.statusCode, res.body).toBe(201);
    expect(await record(5)).toMatchObject({ disk_size: 32, ram_size: null });
  });

  it('reads JSON whatever the Content-Type says', async () => {
    const res = await post('/upload', report(6), { 'content-type': 'application/x-www-form-urlencoded' });
    expect(res.statusCode).toBe(201);
  });

  it.each([
    ['type', { type: 'docker' }, 'lxc or vm'],
    ['type', { type: undefined }, 'type'],
    ['random_id', { random_id: 'not-a-uuid' }, 'UUID'],
    ['random_id', { random_id: '' }, 'UUID'],
    ['random_id', { random_id: undefined }, 'random_id'],
    ['nsapp', { nsapp: '' }, 'nsapp'],
    ['nsapp', { nsapp: 'x'.repeat(65) }, 'at most 64'],
    ['ct_type', { ct_type: 3 }, 'ct_type'],
    ['ct_type', { ct_type: 'one' }, 'ct_type'],
    ['core_count', { core_count: 2.5 }, 'whole number'],
    ['ram_size', { ram_size: -1 }, 'ram_size'],
    ['disk_size', { disk_size: '8T' }, 'disk_size'],
    ['disk_size', { disk_size: true }, 'disk_size'],
    ['status', { status: 'exploded' }, 'installing, validation'],
    ['os_type', { os_type: { a: 1 } }, 'os_type'],
  ])('400 naming %s for %j', async (field, patch, words) => {
    const body = report(7, patch);
    const res = await post('/upload', body);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('validation_failed');
    expect(res.json().message).toContain(field);
    expect(res.json().message).toContain(words);
    expect(await record(7)).toBeUndefined();
  });

  it('400 invalid_json for broken JSON and for an empty body; 413 over 16 KiB', async () => {
    const broken = await post('/upload', '{"random_id": "x", "nsapp": "a"b"}');
    expect(broken.statusCode).toBe(400);
    expect(broken.json().error).toBe('invalid_json');
    const empty = await post('/upload', '');
    expect(empty.statusCode).toBe(400);
    const big = await post('/upload', report(8, { nsapp: 'a', padding: 'x'.repeat(17 * 1024) }));
    expect(big.statusCode).toBe(413);
    expect(big.json().error).toBe('payload_too_large');
    const array = await post('/upload', '[1,2]');
    expect(array.statusCode).toBe(400);
  });

  it('a repeated report is idempotent: 200, one record, first report kept', async () => {
    expect((await post('/upload', report(9))).statusCode).toBe(201);
    const again = await post('/upload', report(9, { nsapp: 'other' }));
    expect(again.statusCode).toBe(200);
    const page = (await t.app.inject({ method: 'GET', url: '/api/records' })).json();
    expect(page.total).toBe(1);
    expect(page.records[0].nsapp).toBe('pihole');
    expect((await t.app.inject({ method: 'GET', url: '/api/stats/summary' })).json().total).toBe(1);
  });

  it('concurrent identical reports create exactly one record', async () => {
    const results = await Promise.all(Array.from({ length: 10 }, () => post('/upload', report(10))));
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 201]);
    expect((await t.app.inject({ method: 'GET', url: '/api/stats/summary' })).json().total).toBe(1);
  });

  it('status update with the spec defaults (failed, "No error message")', async () => {
    await post('/upload', report(11));
    const res = await post('/upload/updatestatus', { random_id: uuid(11) });
    expect(res.statusCode).toBe(200);
    expect(await record(11)).toMatchObject({ status: 'failed', error: 'No error message' });
  });

  it('normalizes sucess to success and accepts every status the clients used', async () => {
    await post('/upload', report(12));
    const res = await post('/upload/updatestatus', { random_id: uuid(12), status: 'sucess', error: 'none' });
    expect(res.statusCode).toBe(200);
    expect((await record(12)).status).toBe('success');
    for (const [i, status] of [
      'installing',
      'validation',
      'configuring',
      'failed',
      'done',
      'aborted',
      'unknown',
    ].entries()) {
      await post('/upload', report(100 + i));
      const r = await post('/upload/updatestatus', { random_id: uuid(100 + i), status, error: '' });
      expect(r.statusCode, status).toBe(200);
    }
    const bad = await post('/upload/updatestatus', { random_id: uuid(12), status: 'exploded' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('status');
  });

  it('update for an unknown random_id: 404 with a clear message, counted as orphan', async () => {
    const res = await post('/upload/updatestatus', { random_id: uuid(13), status: 'failed', error: 'x' });
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toBe('not_found');
    expect(res.json().message).toContain(uuid(13));
    const summary = (await t.app.inject({ method: 'GET', url: '/api/stats/summary' })).json();
    expect(summary.orphanUpdates).toBe(1);
    expect(summary.total).toBe(0);
  });

  it('update with an empty or missing random_id is refused with 400', async () => {
    expect((await post('/upload/updatestatus', { random_id: '', status: 'failed' })).statusCode).toBe(400);
    expect((await post('/upload/updatestatus', { status: 'failed' })).json().message).toContain('random_id');
  });

  it('repeating the same update is idempotent; a different final outcome is 409', async () => {
    await post('/upload', report(14));
    const first = await post('/upload/updatestatus', { random_id: uuid(14), status: 'failed', error: 'apt failed' });
    expect(first.statusCode).toBe(200);
    const same = await post('/upload/updatestatus', { random_id: uuid(14), status: 'failed', error: 'lxc-attach ...' });
    expect(same.statusCode).toBe(200);
    expect((await record(14)).error).toBe('apt failed');
    const other = await post('/upload/updatestatus', { random_id: uuid(14), status: 'done', error: 'none' });
    expect(other.statusCode).toBe(409);
    expect(other.json()).toMatchObject({ error: 'conflict', details: { current: 'failed', requested: 'done' } });
    expect((await record(14)).status).toBe('failed');
    const back = await post('/upload/updatestatus', { random_id: uuid(14), status: 'installing' });
    expect(back.statusCode).toBe(409);
  });

  it('progress moves freely; done and success are the same outcome; unknown yields to a real one', async () => {
    await post('/upload', report(15));
    for (const status of ['validation', 'configuring', 'done', 'success']) {
      expect((await post('/upload/updatestatus', { random_id: uuid(15), status, error: '' })).statusCode).toBe(200);
    }
    expect((await record(15)).status).toBe('done');
    await post('/upload', report(16));
    await post('/upload/updatestatus', { random_id: uuid(16), status: 'unknown', error: '' });
    expect(
      (await post('/upload/updatestatus', { random_id: uuid(16), status: 'failed', error: 'late' })).statusCode,
    ).toBe(200);
    expect((await record(16)).status).toBe('failed');
  });

  it('keeps error texts verbatim (quotes, newlines, unicode) and truncates huge ones', async () => {
    await post('/upload', report(17));
    const error = 'lxc-attach -n 101 -- bash -c "apt-get install \\"x\\""\nline 2\t✓ Ünïcödé 🚀';
    await post('/upload/updatestatus', { random_id: uuid(17), status: 'failed', error });
    expect((await record(17)).error).toBe(error);
    await post('/upload', report(18));
    await post('/upload/updatestatus', { random_id: uuid(18), error: 'e'.repeat(12_000) });
    expect((await record(18)).error).toHaveLength(8192);
  });
});
