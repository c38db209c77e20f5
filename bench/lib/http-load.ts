import autocannon from 'autocannon';

export interface LoadOptions {
  url: string;
  connections?: number;
  durationSeconds?: number;
  method?: 'GET' | 'POST';
  body?: string;
  headers?: Record<string, string>;
}

/** Requests per second (mean) and latency percentiles for one autocannon run on loopback. */
export async function load(opts: LoadOptions): Promise<{ rps: number; p50: number; p99: number; errors: number }> {
  const r = await autocannon({
    url: opts.url,
    connections: opts.connections ?? 50,
    duration: opts.durationSeconds ?? 5,
    method: opts.method ?? 'GET',
    body: opts.body,
    headers: opts.headers,
  });
  return {
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors + r.non2xx,
  };
}
