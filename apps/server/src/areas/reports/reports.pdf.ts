import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ReportData, SeriesSummary } from './reports.model.js';

/** The bundled DejaVu Sans (core PDF fonts are WinAnsi-only: no °C, no arrows). Found from src/ or dist/. */
function fontPath(): string {
  const candidates = ['../../../assets/fonts/DejaVuSans.ttf', '../assets/fonts/DejaVuSans.ttf'].map((p) =>
    fileURLToPath(new URL(p, import.meta.url)),
  );
  const found = candidates.find((p) => existsSync(p));
  if (!found) throw new Error(`Report font not found (looked at ${candidates.join(', ')})`);
  return found;
}

const fmt = (x: number) => (Math.abs(x) >= 1000 ? x.toFixed(0) : x.toFixed(2));
const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

const PAGE = { margin: 50, width: 595.28 - 100 };

function summaryTable(doc: PDFKit.PDFDocument, rows: SeriesSummary[]): void {
  const cols = [
    ['Metric', 110],
    ['Unit', 50],
    ['Min', 75],
    ['Avg', 75],
    ['Max', 75],
    ['Points', 60],
  ] as const;
  let y = doc.y + 4;
  const row = (cells: string[], bold = false) => {
    let x = PAGE.margin;
    doc.fontSize(10).fillColor(bold ? '#000' : '#222');
    cells.forEach((c, i) => {
      doc.text(c, x + 2, y + 4, { width: cols[i]![1] - 4, lineBreak: false });
      x += cols[i]![1];
    });
    y += 18;
    doc
      .moveTo(PAGE.margin, y)
      .lineTo(PAGE.margin + 445, y)
      .strokeColor('#bbb')
      .lineWidth(0.5)
      .stroke();
  };
  row(
    cols.map((c) => c[0]),
    true,
  );
  for (const r of rows) {
    const s = r.points.length > 0;
    row([r.metric, r.unit, s ? fmt(r.min) : '–', s ? fmt(r.avg) : '–', s ? fmt(r.max) : '–', String(r.points.length)]);
  }
  doc.x = PAGE.margin;
  doc.y = y + 12;
}

/** A line chart of avg with a min–max band; axes labelled with the unit. */
function chart(doc: PDFKit.PDFDocument, s: SeriesSummary, start: number, end: number): void {
  const h = 150;
  if (doc.y + h + 50 > doc.page.height - PAGE.margin) doc.addPage();
  doc
    .fontSize(12)
    .fillColor('#000')
    .text(`${s.metric} (${s.unit}) ↗ min ${fmt(s.min)} · max ${fmt(s.max)}`, PAGE.margin);
  const top = doc.y + 6;
  const left = PAGE.margin + 45;
  const w = PAGE.width - 45;
  const lo = s.points.length ? Math.min(0, s.min) : 0;
  const hi = s.points.length ? Math.max(s.max, lo + 1e-9) : 1;
  const X = (t: number) => left + ((t - start) / Math.max(1, end - start)) * w;
  const Y = (v: number) => top + h - ((v - lo) / (hi - lo)) * h;
  doc.rect(left, top, w, h).strokeColor('#888').lineWidth(0.5).stroke();
  doc.fontSize(8).fillColor('#444');
  doc.text(fmt(hi), PAGE.margin, top - 4, { width: 42, align: 'right' });
  doc.text(fmt(lo), PAGE.margin, top + h - 6, { width: 42, align: 'right' });
  doc.text(iso(start), left, top + h + 4);
  doc.text(iso(end), left + w - 110, top + h + 4, { width: 110, align: 'right' });
  if (s.points.length > 1) {
    const band = s.points.map((p) => [X(p.t), Y(p.max)] as const);
    const back = [...s.points].reverse().map((p) => [X(p.t), Y(p.min)] as const);
    doc.moveTo(band[0]![0], band[0]![1]);
    for (const [x, y] of [...band.slice(1), ...back]) doc.lineTo(x, y);
    doc.closePath().fillColor('#cfe0f5').fill();
    doc.moveTo(X(s.points[0]!.t), Y(s.points[0]!.avg));
    for (const p of s.points.slice(1)) doc.lineTo(X(p.t), Y(p.avg));
    doc.strokeColor('#1f5fa8').lineWidth(1.2).stroke();
  } else {
    doc
      .fontSize(10)
      .fillColor('#666')
      .text('No data in this period', left + 10, top + h / 2 - 5);
  }
  doc.x = PAGE.margin;
  doc.y = top + h + 24;
}

/** Renders the report; resolves with the whole PDF. */
export async function renderPdf(r: ReportData): Promise<Buffer> {
  // pdfkit (and its fonts) load on the first report: they cost start-up time and memory nobody else needs.
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({
    size: 'A4',
    margin: PAGE.margin,
    info: { Title: r.title, Producer: 'svc', Creator: 'svc', CreationDate: new Date(r.generatedAt) },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  doc.registerFont('body', fontPath());
  doc.font('body');
  doc.fontSize(20).fillColor('#000').text(r.title);
  doc.moveDown(0.3).fontSize(11).fillColor('#222');
  doc.text(`Period: ${iso(r.start)} → ${iso(r.end)} (UTC)`);
  doc.text(`Resource: ${r.resourceType} ${r.resourceId}`);
  doc.text(`Generated: ${iso(r.generatedAt)} · tier ${r.tier}, ${r.stepSeconds} s buckets`);
  doc.moveDown(0.8).fontSize(14).fillColor('#000').text('Summary');
  summaryTable(doc, r.series);
  // Metrics without data in the period stay in the table but get no empty chart (unless asked for alone).
  for (const s of r.series.filter((x) => x.points.length > 0 || r.series.length === 1)) chart(doc, s, r.start, r.end);
  doc.end();
  return done;
}
