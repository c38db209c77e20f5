/**
 * How every benchmark reports: a measured value, the baseline measured in the same run, their ratio,
 * and the target the ratio must meet. The last line is JSON for scripts.
 */
export interface Result {
  name: string;
  value: number;
  baseline: number;
  unit: string;
  /** ratio = value / baseline */
  target: { op: '>=' | '<='; ratio: number };
  extra?: Record<string, unknown>;
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

export function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
}

export function report(results: Result[]): boolean {
  let ok = true;
  for (const r of results) {
    const ratio = r.value / r.baseline;
    const met = r.target.op === '>=' ? ratio >= r.target.ratio : ratio <= r.target.ratio;
    ok &&= met;
    console.log(
      `${r.name}: ${fmt(r.value)} ${r.unit} vs baseline ${fmt(r.baseline)} ${r.unit} -> ratio ${ratio.toFixed(2)} ` +
        `(target ${r.target.op} ${r.target.ratio}) ${met ? 'MET' : 'MISSED'}`,
    );
  }
  console.log(JSON.stringify({ results: results.map((r) => ({ ...r, ratio: r.value / r.baseline })) }));
  return ok;
}

function fmt(n: number): string {
  return n >= 100 ? Math.round(n).toLocaleString('en-US') : n.toFixed(2);
}
