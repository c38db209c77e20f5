import type { MetricName, ReportQuery } from '@svc/contract';
import { AppError, type Clock } from '@svc/platform';
import type { Caller } from '../../platform/http/principal.js';
import type { HistoryReader } from '../resources/index.js';
import { type ReportData, renderCsv, summarise } from './reports.model.js';
import { renderPdf } from './reports.pdf.js';

const DAY_MS = 86_400_000;
/** Buckets per series in a report: a smooth chart and a CSV of useful size. */
const REPORT_POINTS = 500;

function invalid(field: string, message: string): AppError {
  return new AppError('validation_failed', `Invalid query: ${field} (${message}).`, {
    issues: [{ location: 'query', field, message }],
  });
}

/** The metrics store reads windows ending now, so a report asks for everything since `start` and cuts. */
function historyWindow(start: number, end: number, now: number) {
  const sinceStart = Math.max(60, Math.ceil((now - start) / 1000));
  const minutes = Math.ceil(sinceStart / 60);
  const range = minutes <= 99_999 ? `${minutes}m` : `${Math.ceil(sinceStart / 3600)}h`;
  const share = (end - start) / Math.max(1, now - start);
  return { range, maxPoints: Math.min(5000, Math.max(10, Math.ceil(REPORT_POINTS / share))) };
}

export function createReportsService(deps: { clock: Clock; history: HistoryReader }) {
  async function collect(caller: Caller, q: ReportQuery): Promise<ReportData> {
    const now = deps.clock.now();
    const end = Math.min(q.end ? Date.parse(q.end) : now, now);
    const start = q.start ? Date.parse(q.start) : end - DAY_MS;
    if (start >= end) throw invalid('start', 'start must be before end (and before now)');
    const w = historyWindow(start, end, now);
    const h = await deps.history(caller, {
      resourceType: q.resourceType,
      resourceId: q.resourceId,
      metric: q.metricType,
      range: w.range,
      maxPoints: w.maxPoints,
    });
    const series = h.series.map((s) =>
      summarise(
        s.metric as MetricName,
        s.points.filter((p) => p.t >= start && p.t <= end),
      ),
    );
    return {
      title: q.title?.trim() || `Metrics report: ${q.resourceId}`,
      resourceType: h.resourceType,
      resourceId: q.resourceId,
      start,
      end,
      generatedAt: now,
      tier: h.tier ?? 'raw',
      stepSeconds: h.stepSeconds ?? 0,
      series,
    };
  }

  return {
    /** The report as bytes plus the headers that name its type and file. */
    async generateReport(caller: Caller, q: ReportQuery) {
      const data = await collect(caller, q);
      const stamp = new Date(data.end).toISOString().slice(0, 10);
      const base = `svc-report-${data.resourceType}-${q.resourceId.replace(/[^A-Za-z0-9._-]+/g, '_')}-${stamp}`;
      if (q.format === 'csv') {
        return { body: Buffer.from(renderCsv(data)), type: 'text/csv; charset=utf-8', file: `${base}.csv` };
      }
      return { body: await renderPdf(data), type: 'application/pdf', file: `${base}.pdf` };
    },
  };
}

export type ReportsService = ReturnType<typeof createReportsService>;
