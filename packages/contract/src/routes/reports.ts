import { z } from 'zod';
import { defineRoute } from '../route.js';
import { metricNames, metricsResourceTypeAliases, metricsResourceTypes } from './metrics.js';

const rfc3339 = z.iso.datetime({ offset: true, error: 'expected an RFC 3339 time such as 2026-11-22T12:00:00Z' });

export const reportQuery = z.object({
  format: z.enum(['pdf', 'csv']).default('pdf'),
  resourceType: z.enum([...metricsResourceTypes, ...metricsResourceTypeAliases]),
  resourceId: z.string().min(1).max(256),
  metricType: z.enum(metricNames).optional().describe('One metric; every recorded metric when omitted'),
  start: rfc3339.optional().describe('RFC 3339; default 24 hours before end'),
  end: rfc3339.optional().describe('RFC 3339; default now'),
  title: z.string().max(200).optional(),
});
export type ReportQuery = z.infer<typeof reportQuery>;

export const reportRoutes = {
  generateReport: defineRoute({
    method: 'GET',
    path: '/api/admin/reports/generate',
    summary: 'Metrics report of one resource over a period, as PDF (summary table and charts) or CSV',
    description:
      'PDF: title, period, resource, min/avg/max per metric and one chart per metric. CSV: one row per point ' +
      '(timestamp, metric, avg, min, max). The period must end after it starts; beyond 7 days needs long_term_metrics.',
    tag: 'Reports',
    access: 'admin',
    scopes: ['settings:read'],
    feature: 'advanced_reporting',
    query: reportQuery,
    responseKind: 'binary',
  }),
} as const;
