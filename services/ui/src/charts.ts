/**
 * Charts as inline SVG drawn on the server (no script, no library): each a figure with a caption, an SVG with a
 * text alternative, and the same numbers as a table for those who would rather read them.
 */
import { html, type Html } from './html.ts';

export const SEVERITIES = ['critical', 'high', 'medium', 'low'] as const;

export type PeriodUnit = 'day' | 'hour';

export interface PeriodCount {
  /** Macau date "YYYY-MM-DD", or hour "YYYY-MM-DD HH:00" */
  readonly label: string;
  readonly bySeverity: Readonly<Record<string, number>>;
}

const total = (d: PeriodCount): number => Object.values(d.bySeverity).reduce((a, b) => a + b, 0);

/** A tick step that gives at most about five ticks up to max (1, 2, 5 × 10^k). */
export function tickStep(max: number): number {
  if (max <= 5) return 1;
  const rough = max / 5;
  const p = 10 ** Math.floor(Math.log10(rough));
  return [1, 2, 5, 10].map((m) => m * p).find((s) => s >= rough)!;
}

/** Findings per Macau day, stacked by severity. */
export function findingsOverTime(days: readonly PeriodCount[], unit: PeriodUnit, caption: string): Html {
  if (days.length === 0)
    return html`<figure class="chart">
      <figcaption>${caption}</figcaption>
      <p>No findings to draw.</p>
    </figure>`;
  const max = Math.max(...days.map(total));
  const step = tickStep(max);
  const top = Math.ceil(max / step) * step;
  const width = 640;
  const height = 220;
  const left = 40;
  const bottom = 40;
  const plotW = width - left - 10;
  const plotH = height - bottom - 10;
  const slot = plotW / days.length;
  const barW = Math.max(2, Math.min(40, slot * 0.7));
  const y = (v: number) => 10 + plotH - (v / top) * plotH;
  const ticks: number[] = [];
  for (let v = 0; v <= top; v += step) ticks.push(v);
  const labelEvery = Math.ceil(days.length / 8);
  // labels without the year when every period is of one year
  const oneYear = days.every((d) => d.label.slice(0, 4) === days[0]!.label.slice(0, 4));
  const summary = `${days.reduce((a, d) => a + total(d), 0)} findings over ${days.length} Macau ${unit}(s), at most ${max} in one`;
  return html`<figure class="chart" data-testid="chart-over-time">
    <figcaption>${caption}</figcaption>
    <svg
      viewBox="0 0 ${width} ${height}"
      role="img"
      aria-label="${summary}"
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
              >${v}</text
            >`,
      )}
      ${days.map((d, i) => {
        let base = 0;
        const x = left + i * slot + (slot - barW) / 2;
        return html`<g
          >${SEVERITIES.map((s) => {
            const n = d.bySeverity[s] ?? 0;
            if (n === 0) return '';
            const r = html`<rect
              x="${x.toFixed(1)}"
              y="${y(base + n).toFixed(1)}"
              width="${barW.toFixed(1)}"
              height="${(y(base) - y(base + n)).toFixed(1)}"
              class="sev-${s}"
              ><title>${d.label}: ${n} ${s}</title></rect
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
                  >${oneYear ? d.label.slice(5) : d.label}</text
                >`
              : ''
          }</g
        >`;
      })}
      <text x="${left}" y="${height - 4}" class="tick">
        Macau ${unit === 'day' ? 'date' : 'hour'} (UTC+8)${oneYear ? `, ${days[0]!.label.slice(0, 4)}` : ''}
      </text>
    </svg>
    <ul class="legend">
      ${SEVERITIES.map((s) => html`<li><span class="swatch sev-${s}"></span>${s}</li>`)}
    </ul>
    <details>
      <summary>The numbers</summary>
      <table>
        <caption>
          Findings per Macau ${unit} by severity
        </caption>
        <thead>
          <tr>
            <th scope="col">Macau ${unit === 'day' ? 'date' : 'hour'}</th>
            ${SEVERITIES.map((s) => html`<th scope="col">${s}</th>`)}
            <th scope="col">all</th>
          </tr>
        </thead>
        <tbody>
          ${days.map(
            (d) =>
              html`<tr>
                <th scope="row">${d.label}</th>
                ${SEVERITIES.map((s) => html`<td class="num">${d.bySeverity[s] ?? 0}</td>`)}
                <td class="num">${total(d)}</td>
              </tr>`,
          )}
        </tbody>
      </table>
    </details>
  </figure>`;
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
