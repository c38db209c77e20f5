import type { MetricName } from '@svc/contract';

export interface ReportPoint {
  t: number;
  avg: number;
  min: number;
  max: number;
}

export interface SeriesSummary {
  metric: MetricName;
  unit: string;
  points: ReportPoint[];
  min: number;
  avg: number;
  max: number;
}

export interface ReportData {
  title: string;
  resourceType: string;
  resourceId: string;
  start: number;
  end: number;
  generatedAt: number;
  tier: string;
  stepSeconds: number;
  series: SeriesSummary[];
}

const units: Record<MetricName, string> = {
  cpu: '%',
  memory: '%',
  disk: '%',
  diskread: 'B/s',
  diskwrite: 'B/s',
  netin: 'B/s',
  netout: 'B/s',
  temperature: '°C',
};

/** Min of mins, max of maxes, and the average weighted equally per bucket. */
export function summarise(metric: MetricName, points: ReportPoint[]): SeriesSummary {
  if (points.length === 0) return { metric, unit: units[metric], points, min: 0, avg: 0, max: 0 };
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  let sum = 0;
  for (const p of points) {
    min = Math.min(min, p.min);
    max = Math.max(max, p.max);
    sum += p.avg;
  }
  return { metric, unit: units[metric], points, min, avg: sum / points.length, max };
}

/** One row per point. Only the resource id can hold a comma or quote, so only it is quoted (RFC 4180). */
export function renderCsv(r: ReportData): string {
  const lines = ['timestamp,resource_type,resource_id,metric,unit,avg,min,max'];
  const id = /[",\n]/.test(r.resourceId) ? `"${r.resourceId.replaceAll('"', '""')}"` : r.resourceId;
  for (const s of r.series)
    for (const p of s.points)
      lines.push([new Date(p.t).toISOString(), r.resourceType, id, s.metric, s.unit, p.avg, p.min, p.max].join(','));
  return `${lines.join('\n')}\n`;
}
