// `npm run bench -- metrics-write`: points/s through the metrics store's write path (validation, series
// dictionary, one transaction per poll batch) vs raw better-sqlite3 prepared INSERTs into the same schema,
// one transaction per batch, WAL, synchronous=NORMAL. Batches are shaped like polls: every metric of every
// node and guest at one timestamp. Interleaved rounds on fresh files; target >= 0.6x. Also bytes per point.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type MetricName, type MetricsResourceType, metricsByResourceType } from '@svc/contract';
import { FakeClock } from '@svc/platform';
import { createMetricsService } from '../apps/server/src/areas/metrics/metrics.service.js';
import { createMetricsStore, type MetricPoint } from '../apps/server/src/areas/metrics/metrics.store.js';
import { type Db, migrateServerDatabase, openServerDatabase } from '../apps/server/src/platform/db/index.js';
import { median, type Result, report } from './lib/report.js';

const NODES = Number(process.env.BENCH_NODES ?? 500);
const GUESTS = Number(process.env.BENCH_GUESTS ?? 2500);
const BATCHES = Number(process.env.BENCH_BATCHES ?? 20);
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const T0 = Date.UTC(2026, 10, 1);

function resources(): { type: MetricsResourceType; id: string; metrics: readonly MetricName[] }[] {
  const out = [];
  for (let n = 0; n < NODES; n++)
    out.push({ type: 'node' as const, id: `pve${n}`, metrics: metricsByResourceType.node });
  for (let g = 0; g < GUESTS; g++) {
    const type = g % 3 === 0 ? ('container' as const) : ('vm' as const);
    out.push({ type, id: `pve${g % NODES}:${100 + g}`, metrics: metricsByResourceType[type] });
  }
  return out;
}

/** One poll per batch; the first batch is the warm-up (it creates the series). */
function batches(): MetricPoint[][] {
  const rs = resources();
  const out: MetricPoint[][] = [];
  for (let b = 0; b <= BATCHES; b++) {
    const timestamp = T0 + b * 10_000;
    const batch: MetricPoint[] = [];
    for (const r of rs) {
      for (const metric of r.metrics) {
        batch.push({
          orgId: 'default',
          resourceType: r.type,
          resourceId: r.id,
          metric,
          value: Math.random() * 100,
          timestamp,
        });
      }
    }
    out.push(batch);
  }
  return out;
}

function writeBytes(): number {
  return Number(/^write_bytes: (\d+)$/m.exec(readFileSync('/proc/self/io', 'utf8'))?.[1] ?? 0);
}

async function freshDb(): Promise<{ db: Db; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-write-bench-'));
  const db = openServerDatabase({ dataDir: dir, databaseUrl: undefined });
  await migrateServerDatabase(db);
  return { db, dir };
}

interface Run {
  pointsPerSecond: number;
  cpuSecondsPerMillion: number;
  writeBytesPerMillion: number;
  diskBytesPerPoint: number;
}

/** Times the batches after the warm-up, then checkpoints the WAL so the bytes written include the main file. */
async function measure(db: Db, warmUp: () => Promise<void>, write: (i: number) => Promise<void>): Promise<Run> {
  await warmUp();
  const sqlite = db.sqlite!;
  sqlite.pragma('wal_checkpoint(TRUNCATE)');
  const points = all.slice(1).reduce((n, b) => n + b.length, 0);
  const bytes0 = writeBytes();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 1; i <= BATCHES; i++) await write(i);
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  sqlite.pragma('wal_checkpoint(TRUNCATE)');
  const written = writeBytes() - bytes0;
  const raw = sqlite.prepare("select sum(pgsize) as b from dbstat where name = 'metric_raw'").get() as { b: number };
  const rows = sqlite.prepare('select count(*) as n from metric_raw').get() as { n: number };
  return {
    pointsPerSecond: points / seconds,
    cpuSecondsPerMillion: ((cpu.user + cpu.system) / 1e6 / points) * 1e6,
    writeBytesPerMillion: (written / points) * 1e6,
    diskBytesPerPoint: raw.b / rows.n,
  };
}

async function runStore(): Promise<Run> {
  const { db, dir } = await freshDb();
  const service = createMetricsService(createMetricsStore(db), { clock: new FakeClock(T0), hasFeature: () => false });
  try {
    return await measure(
      db,
      async () => void (await service.recordBatch(all[0]!)),
      async (i) => void (await service.recordBatch(all[i]!)),
    );
  } finally {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The physical limit: ids resolved beforehand, bare prepared INSERT, one transaction per batch. */
async function runRaw(): Promise<Run> {
  const { db, dir } = await freshDb();
  const sqlite = db.sqlite!;
  const addSeries = sqlite.prepare(
    'INSERT INTO metric_series (org_id, resource_type, resource_id, metric) VALUES (?, ?, ?, ?) RETURNING id',
  );
  const insert = sqlite.prepare('INSERT INTO metric_raw (series_id, ts, value) VALUES (?, ?, ?)');
  const tx = sqlite.transaction((ids: Int32Array, batch: MetricPoint[]) => {
    for (let j = 0; j < batch.length; j++) {
      const p = batch[j]!;
      insert.run(ids[j], Math.floor(p.timestamp / 1000), p.value);
    }
  });
  let ids = new Int32Array(0);
  try {
    return await measure(
      db,
      async () => {
        ids = Int32Array.from(
          sqlite.transaction(() =>
            all[0]!.map((p) => (addSeries.get(p.orgId, p.resourceType, p.resourceId, p.metric) as { id: number }).id),
          )(),
        );
        tx(ids, all[0]!);
      },
      async (i) => tx(ids, all[i]!),
    );
  } finally {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const all = batches();
const storeRuns: Run[] = [];
const rawRuns: Run[] = [];
const ratios: number[] = [];
for (let r = 0; r < rounds; r++) {
  // Alternate which goes first: the deleted files of one run are still being written back during the next.
  const raw = r % 2 === 0 ? await runRaw() : null;
  const ours = await runStore();
  const rawRun = raw ?? (await runRaw());
  rawRuns.push(rawRun);
  storeRuns.push(ours);
  ratios.push(ours.pointsPerSecond / rawRun.pointsPerSecond);
}
const med = (runs: Run[], k: keyof Run) => median(runs.map((x) => x[k]));
console.log(
  `batch ${all[0]!.length} points x ${BATCHES} batches per round, ${rounds} rounds; ` +
    `ratio min ${Math.min(...ratios).toFixed(2)} max ${Math.max(...ratios).toFixed(2)}`,
);
for (const [name, runs] of [
  ['store', storeRuns],
  ['raw', rawRuns],
] as const) {
  console.log(
    `${name}: ${Math.round(med(runs, 'pointsPerSecond'))} points/s, ${med(runs, 'cpuSecondsPerMillion').toFixed(2)} CPU-s per 1M, ` +
      `${(med(runs, 'writeBytesPerMillion') / 1e6).toFixed(1)} MB written per 1M points, ` +
      `${med(runs, 'diskBytesPerPoint').toFixed(1)} B on disk per raw point`,
  );
}
const results: Result[] = [
  {
    name: 'metrics-write points/s',
    value: med(storeRuns, 'pointsPerSecond'),
    baseline: med(rawRuns, 'pointsPerSecond'),
    unit: 'points/s',
    target: { op: '>=', ratio: 0.6 },
    extra: {
      medianRatio: median(ratios),
      cpuRatio: med(rawRuns, 'cpuSecondsPerMillion') / med(storeRuns, 'cpuSecondsPerMillion'),
      writeBytesPer1M: med(storeRuns, 'writeBytesPerMillion'),
      rawWriteBytesPer1M: med(rawRuns, 'writeBytesPerMillion'),
      diskBytesPerPoint: med(storeRuns, 'diskBytesPerPoint'),
    },
  },
];
process.exitCode = report(results) ? 0 : 1;
