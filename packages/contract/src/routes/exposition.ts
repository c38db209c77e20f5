import { defineRoute } from '../route.js';

export const expositionRoutes = {
  getPrometheusMetrics: defineRoute({
    method: 'GET',
    path: '/metrics',
    summary: "Prometheus exposition: svc's own process metrics and every monitored resource's current values",
    description:
      'Text format 0.0.4. Resource series carry the labels id, name, type, node and cluster. ' +
      'Scrape with a token holding monitoring:read (Authorization: Bearer). Off when SVC_METRICS_ENDPOINT=false (404).',
    tag: 'Metrics',
    access: 'auth',
    scopes: ['monitoring:read'],
    responseKind: 'text',
  }),
} as const;
