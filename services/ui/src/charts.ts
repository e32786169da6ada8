/**
 * Charts as inline SVG drawn on the server (no script, no library): each a figure with a caption, an SVG with a
 * text alternative, and the same numbers as a table for those who would rather read them.
 */
import { html, type Html } from './html.ts';

export const SEVERITIES = ['critical', 'high', 'medium', 'low'] as const;

/** A chart as GET /v1/charts/:chart answers it: series of time buckets from the dashboards' panel SQL. */
export interface ChartJson {
  readonly chart: string;
  readonly panel: { readonly id: string; readonly title: string; readonly description: string };
  readonly unit: 'findings' | 'avos';
  readonly from: number;
  readonly to: number;
  readonly fromMacau: string;
  readonly toMacau: string;
  readonly intervalSeconds: number;
  readonly source: string;
  readonly series: readonly {
    readonly name: string;
    readonly points: readonly { time: number; value: number }[];
  }[];
}

/** A tick step that gives at most about five ticks up to max (1, 2, 5 × 10^k). */
export function tickStep(max: number): number {
  if (max <= 5) return 1;
  const rough = max / 5;
  const p = 10 ** Math.floor(Math.log10(rough));
  return [1, 2, 5, 10].map((m) => m * p).find((s) => s >= rough)!;
}

/** How many series get a colour of their own (series-0 … series-5); more share them in turn. */
const PALETTE = 6;

/**
 * Stacked bars per time bucket, one colour per series (a casino; overpaid and underpaid), labelled in Macau time,
 * with the numbers as a table. `shown` formats a value as people read it (a count, or MOP from avos).
 */
export function seriesChart(
  c: ChartJson,
  caption: string,
  testId: string,
  shown: (v: number) => string,
): Html {
  const times = [...new Set(c.series.flatMap((s) => s.points.map((p) => p.time)))].sort((a, b) => a - b);
  if (times.length === 0)
    return html`<figure class="chart" data-testid="${testId}">
      <figcaption>${caption}</figcaption>
      <p>Nothing in this range.</p>
    </figure>`;
  const value = (s: ChartJson['series'][number], t: number) =>
    Math.abs(s.points.find((p) => p.time === t)?.value ?? 0);
  const totals = times.map((t) => c.series.reduce((a, s) => a + value(s, t), 0));
  const max = Math.max(...totals, 1);
  const step = tickStep(max);
  const top = Math.ceil(max / step) * step;
  const width = 640;
  const height = 220;
  const left = 70;
  const bottom = 40;
  const plotW = width - left - 10;
  const plotH = height - bottom - 10;
  const slot = plotW / times.length;
  const barW = Math.max(2, Math.min(40, slot * 0.7));
  const y = (v: number) => 10 + plotH - (v / top) * plotH;
  const ticks: number[] = [];
  for (let v = 0; v <= top; v += step) ticks.push(v);
  const labelEvery = Math.ceil(times.length / 6);
  const label = (t: number) => macauLabel(t, c.intervalSeconds);
  return html`<figure class="chart" data-testid="${testId}">
    <figcaption>${caption}</figcaption>
    <svg
      viewBox="0 0 ${width} ${height}"
      role="img"
      aria-label="${caption}: ${c.series.length} series over ${times.length} buckets, at most ${shown(max)} in one"
      width="100%"
      preserveAspectRatio="xMinYMin meet"
    >
      ${ticks.map(
        (v) =>
          html`<line x1="${left}" x2="${width - 10}" y1="${y(v)}" y2="${y(v)}" class="grid" /><text
              x="${left - 6}"
              y="${y(v) + 4}"
              text-anchor="end"
              class="tick"
              >${shown(v)}</text
            >`,
      )}
      ${times.map((t, i) => {
        let base = 0;
        const x = left + i * slot + (slot - barW) / 2;
        return html`<g
          >${c.series.map((s, k) => {
            const n = value(s, t);
            if (n === 0) return '';
            const r = html`<rect
              x="${x.toFixed(1)}"
              y="${y(base + n).toFixed(1)}"
              width="${barW.toFixed(1)}"
              height="${(y(base) - y(base + n)).toFixed(1)}"
              class="series-${k % PALETTE}"
              ><title>${label(t)}: ${s.name} ${shown(n)}</title></rect
            >`;
            base += n;
            return r;
          })}${
            i % labelEvery === 0
              ? html`<text
                  x="${(x + barW / 2).toFixed(1)}"
                  y="${height - bottom + 16}"
                  text-anchor="middle"
                  class="tick"
                  >${label(t)}</text
                >`
              : ''
          }</g
        >`;
      })}
      <text x="${left}" y="${height - 4}" class="tick">
        Macau time (UTC+8), buckets of ${bucket(c.intervalSeconds)}
      </text>
    </svg>
    <ul class="legend">
      ${c.series.map((s, k) => html`<li><span class="swatch series-${k % PALETTE}"></span>${s.name}</li>`)}
    </ul>
    <details>
      <summary>The numbers</summary>
      <table>
        <caption>
          ${caption}
        </caption>
        <thead>
          <tr>
            <th scope="col">From (Macau time)</th>
            ${c.series.map((s) => html`<th scope="col">${s.name}</th>`)}
          </tr>
        </thead>
        <tbody>
          ${times.map(
            (t) =>
              html`<tr>
                <th scope="row">${label(t)}</th>
                ${c.series.map((s) => html`<td class="num">${shown(value(s, t))}</td>`)}
              </tr>`,
          )}
        </tbody>
      </table>
    </details>
  </figure>`;
}

const bucket = (seconds: number): string =>
  seconds % 86_400 === 0 ? `${seconds / 86_400} day(s)` : `${seconds / 3_600} hour(s)`;

/** A bucket's start in Macau time: "12-01 14:00" (the date alone for whole days). */
export function macauLabel(time: number, intervalSeconds: number): string {
  const clock = new Date(time + 8 * 3_600_000).toISOString();
  return intervalSeconds % 86_400 === 0 && clock.slice(11, 16) === '00:00'
    ? clock.slice(5, 10)
    : `${clock.slice(5, 10)} ${clock.slice(11, 16)}`;
}

export interface Bar {
  readonly label: string;
  readonly value: number;
  /** the value as people read it (e.g. MOP) */
  readonly shown: string;
  readonly href?: string;
}

/** Horizontal bars, largest first as given, each labelled with its value (and a link, when it has one). */
export function barChart(bars: readonly Bar[], caption: string, testId: string): Html {
  if (bars.length === 0)
    return html`<figure class="chart" data-testid="${testId}">
      <figcaption>${caption}</figcaption>
      <p>Nothing to draw.</p>
    </figure>`;
  const max = Math.max(...bars.map((b) => Math.abs(b.value)), 1);
  const rowH = 22;
  const width = 640;
  const labelW = 260;
  const valueW = 120;
  const plotW = width - labelW - valueW;
  const height = bars.length * rowH + 6;
  return html`<figure class="chart" data-testid="${testId}">
    <figcaption>${caption}</figcaption>
    <svg
      viewBox="0 0 ${width} ${height}"
      role="img"
      aria-label="${caption}: ${bars.map((b) => `${b.label} ${b.shown}`).join('; ')}"
      width="100%"
      preserveAspectRatio="xMinYMin meet"
    >
      ${bars.map((b, i) => {
        const y = 3 + i * rowH;
        const w = Math.max(1, (Math.abs(b.value) / max) * plotW);
        const label = html`<text x="${labelW - 6}" y="${y + 15}" text-anchor="end" class="tick"
          >${b.label}</text
        >`;
        return html`<g
          >${b.href ? html`<a href="${b.href}">${label}</a>` : label}<rect
            x="${labelW}"
            y="${y + 3}"
            width="${w.toFixed(1)}"
            height="${rowH - 8}"
            class="bar"
            ><title>${b.label}: ${b.shown}</title></rect
          ><text x="${(labelW + w + 6).toFixed(1)}" y="${y + 15}" class="tick">${b.shown}</text></g
        >`;
      })}
    </svg>
    <details>
      <summary>The numbers</summary>
      <table>
        <caption>
          ${caption}
        </caption>
        <tbody>
          ${bars.map(
            (b) =>
              html`<tr>
                <th scope="row">${b.href ? html`<a href="${b.href}">${b.label}</a>` : b.label}</th>
                <td class="num">${b.shown}</td>
              </tr>`,
          )}
        </tbody>
      </table>
    </details>
  </figure>`;
}
