// Inline SVG charts for the morning report, drawn here so the file needs no script, no CDN and no network.
// Pure: data in, markup out. Every text is escaped.

export const escapeHtml = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** Colour-blind-safe palette (Okabe–Ito), in the order series appear. */
const PALETTE = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9', '#000000', '#F0E442'];
export const colourOf = (i: number): string => PALETTE[i % PALETTE.length]!;

const FONT = 'font-family="system-ui, sans-serif" font-size="11"';

/** A "nice" upper bound for an axis: 1, 2 or 5 × 10^k at or above the maximum. */
export const niceMax = (max: number): number => {
  if (!(max > 0)) return 1;
  const p = 10 ** Math.floor(Math.log10(max));
  return ([1, 2, 5, 10].map((m) => m * p).find((v) => v >= max) ?? 10 * p) as number;
};

export interface BarSeries {
  readonly name: string;
  readonly values: readonly number[];
}

/**
 * Horizontal bars, one group per label: side by side (one bar per series) or `stacked` (one bar, a segment per
 * series, the total at its end). Values are written beside their bars (zeros are not); labels longer than 36
 * characters are cut, the full text in the bar's title.
 */
export const barChart = (
  labels: readonly string[],
  series: readonly BarSeries[],
  format: (v: number) => string,
  title: string,
  stacked = false,
): string => {
  const width = 720;
  const labelWidth = 250;
  const valueWidth = 110;
  const barHeight = 14;
  const groupGap = 6;
  const legendHeight = series.length > 1 ? 20 : 0;
  const barsPerGroup = stacked ? 1 : series.length;
  const groupHeight = barsPerGroup * barHeight + groupGap;
  const height = legendHeight + labels.length * groupHeight + 8;
  const totals = labels.map((_, g) => series.reduce((sum, s) => sum + Math.max(s.values[g] ?? 0, 0), 0));
  const max = niceMax(Math.max(0, ...(stacked ? totals : series.flatMap((s) => s.values))));
  const scale = (v: number): number => (Math.max(v, 0) / max) * (width - labelWidth - valueWidth);
  const parts: string[] = [];
  series.forEach((s, i) => {
    if (series.length < 2) return;
    const x = labelWidth + i * 130;
    parts.push(
      `<rect x="${x}" y="4" width="10" height="10" fill="${colourOf(i)}"/>`,
      `<text x="${x + 14}" y="13" ${FONT}>${escapeHtml(s.name)}</text>`,
    );
  });
  const valueText = (x: number, y: number, v: number): string =>
    v === 0
      ? ''
      : `<text x="${(x + 4).toFixed(1)}" y="${y + barHeight - 3}" ${FONT}>${escapeHtml(format(v))}</text>`;
  labels.forEach((label, g) => {
    const y0 = legendHeight + g * groupHeight;
    const shown = label.length > 36 ? `${label.slice(0, 35)}…` : label;
    parts.push(
      `<text x="${labelWidth - 6}" y="${y0 + (barsPerGroup * barHeight) / 2 + 4}" text-anchor="end" ${FONT}>` +
        `<title>${escapeHtml(label)}</title>${escapeHtml(shown)}</text>`,
    );
    let x = labelWidth;
    series.forEach((s, i) => {
      const v = s.values[g] ?? 0;
      const y = stacked ? y0 : y0 + i * barHeight;
      const w = scale(v);
      const start = stacked ? x : labelWidth;
      if (w > 0)
        parts.push(
          `<rect x="${start.toFixed(1)}" y="${y + 1}" width="${w.toFixed(1)}" height="${barHeight - 2}" fill="${colourOf(i)}">` +
            `<title>${escapeHtml(`${label} — ${s.name}: ${format(v)}`)}</title></rect>`,
        );
      if (stacked) x += w;
      else parts.push(valueText(start + w, y, v));
    });
    if (stacked) parts.push(valueText(x, y0, totals[g]!));
  });
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" role="img" width="${width}" height="${height}" ` +
    `viewBox="0 0 ${width} ${height}"><title>${escapeHtml(title)}</title>${parts.join('')}</svg>`
  );
};

export interface LinePoint {
  /** UTC milliseconds */
  readonly t: number;
  readonly series: string;
  readonly value: number;
}

/**
 * Lines over a time range (one per series, points joined in time order, missing buckets drawn as 0), with the
 * x axis labelled by `timeLabel` (the caller says which time zone) and a legend.
 */
export const lineChart = (
  points: readonly LinePoint[],
  range: { readonly from: number; readonly to: number },
  bucketMs: number,
  timeLabel: (t: number) => string,
  title: string,
): string => {
  const width = 720;
  const height = 240;
  const left = 44;
  const right = 12;
  const top = 10;
  const bottom = 52;
  const plotW = width - left - right;
  const plotH = height - top - bottom;
  const names = [...new Set(points.map((p) => p.series))].sort();
  const buckets = Math.max(1, Math.ceil((range.to - range.from) / bucketMs));
  const bucketOf = (t: number): number =>
    Math.min(buckets - 1, Math.max(0, Math.floor((t - range.from) / bucketMs)));
  const grid = new Map(names.map((n) => [n, new Array<number>(buckets).fill(0)]));
  for (const p of points) grid.get(p.series)![bucketOf(p.t)]! += p.value;
  const max = niceMax(Math.max(0, ...[...grid.values()].flat()));
  const x = (i: number): number => left + (buckets === 1 ? plotW / 2 : (i / (buckets - 1)) * plotW);
  const y = (v: number): number => top + plotH - (v / max) * plotH;
  const parts: string[] = [
    `<line x1="${left}" y1="${top + plotH}" x2="${left + plotW}" y2="${top + plotH}" stroke="#888"/>`,
    `<line x1="${left}" y1="${top}" x2="${left}" y2="${top + plotH}" stroke="#888"/>`,
  ];
  for (const frac of [0, 0.5, 1]) {
    const v = max * frac;
    parts.push(
      `<text x="${left - 4}" y="${(y(v) + 4).toFixed(1)}" text-anchor="end" ${FONT}>${escapeHtml(String(v))}</text>`,
    );
  }
  const tickEvery = Math.max(1, Math.ceil(buckets / 8));
  for (let i = 0; i < buckets; i += tickEvery) {
    parts.push(
      `<text x="${x(i).toFixed(1)}" y="${top + plotH + 14}" text-anchor="middle" ${FONT}>` +
        `${escapeHtml(timeLabel(range.from + i * bucketMs))}</text>`,
    );
  }
  names.forEach((name, s) => {
    const values = grid.get(name)!;
    const d = values.map((v, i) => `${i === 0 ? 'M' : 'L'}${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
    parts.push(
      `<path d="${d}" fill="none" stroke="${colourOf(s)}" stroke-width="2"><title>${escapeHtml(name)}</title></path>`,
    );
    const lx = left + (s % 4) * 170;
    const ly = top + plotH + 30 + Math.floor(s / 4) * 14;
    parts.push(
      `<rect x="${lx}" y="${ly - 9}" width="10" height="10" fill="${colourOf(s)}"/>`,
      `<text x="${lx + 14}" y="${ly}" ${FONT}>${escapeHtml(name)}</text>`,
    );
  });
  const h = height + Math.max(0, Math.ceil(names.length / 4) - 1) * 14;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" role="img" width="${width}" height="${h}" ` +
    `viewBox="0 0 ${width} ${h}"><title>${escapeHtml(title)}</title>${parts.join('')}</svg>`
  );
};
