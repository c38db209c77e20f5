import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { installReport } from './src/contract.schemas.ts';
import { migrateTelemetryDatabase, openTelemetryDatabase, runnerFor } from './src/db/index.ts';
import { insertReport } from './src/ingest/ingest.store.ts';
import { BatchWriter } from './src/ingest/ingest.writer.ts';

const raw = () => ({
  ct_type: 1,
  type: 'lxc',
  disk_size: 8,
  core_count: 2,
  ram_size: 2048,
  os_type: 'debian',
  os_version: '12',
  disableip6: '',
  nsapp: 'pihole',
  method: 'default',
  hv_version: '8.3.2',
  status: 'installing',
  random_id: randomUUID(),
});
for (const [name, dir, durable, ckpt] of [
  ['memory', ':memory:', false, 0],
  ['file', 'x', false, 0],
  ['file-durable', 'x', true, 0],
  ['file-durable-ckpt10k', 'x', true, 10000],
] as const) {
  const db = openTelemetryDatabase({
    dataDir: dir === ':memory:' ? dir : mkdtempSync(tmpdir() + '/zz-'),
    databaseUrl: undefined,
    durableWrites: durable,
  });
  if (ckpt) db.sqlite!.pragma(`wal_autocheckpoint = ${ckpt}`);
  await migrateTelemetryDatabase(db);
  const w = new BatchWriter(runnerFor(db));
  const reports = Array.from({ length: 20000 }, () => installReport.parse(raw()));
  const t = performance.now();
  for (let i = 0; i < reports.length; i += 50)
    await Promise.all(reports.slice(i, i + 50).map((r) => w.write((tx, d) => insertReport(tx, d, r, Date.now()))));
  console.log(name, 'µs/op', (((performance.now() - t) * 1000) / reports.length).toFixed(1));
  await db.close();
}
