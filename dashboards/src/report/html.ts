// The morning report as one self-contained HTML file: each section is a dashboard panel's result (the same SQL,
// run by run.ts), drawn as an inline SVG chart with its data in a table beside it. Pure: results in, HTML out.
import { formatMacauTime, formatMop } from '@table-audit/rules';
import type { PanelQuery } from '../panel.ts';
import type { QueryResult } from '../run.ts';
import { MACAU_OFFSET_MS } from '../run.ts';
import { barChart, escapeHtml, lineChart, type LinePoint } from './svg.ts';

export interface ReportSection {
  readonly dashboard: string;
  readonly panel: PanelQuery;
  readonly result: QueryResult;
}

export interface ReportInput {
  /** The Macau date reported on, YYYY-MM-DD. */
  readonly date: string;
  readonly range: { readonly from: number; readonly to: number };
  /** The bucket the time series were grouped by ($__interval), milliseconds. */
  readonly intervalMs: number;
  /** When the report was made, UTC milliseconds (shown in Macau time). */
  readonly generatedAt: number;
  /** Where the data came from, for the reader (e.g. the ClickHouse data directory). */
  readonly source: string;
  readonly sections: readonly ReportSection[];
}

/** UTC milliseconds as Macau local time, "YYYY-MM-DD HH:MM". */
export const macauTime = (t: number): string =>
  new Date(t + MACAU_OFFSET_MS).toISOString().slice(0, 16).replace('T', ' ');

/** Money columns are named `*_mop` and hold integer avos / 100 (so Grafana shows MOP); back to avos to print. */
export const mop = (value: number): string => formatMop(Math.round(value * 100));

const isMoney = (column: string): boolean => column.endsWith('_mop');
const isTimeType = (type: string): boolean => /DateTime/.test(type);
const isNumberType = (type: string): boolean => /Int|Float|Decimal/.test(type);

/** ClickHouse JSON values to numbers: 64-bit integers arrive as strings, times as ISO strings (UTC). */
const toNumber = (v: unknown): number => (typeof v === 'number' ? v : Number(v));
const toTime = (v: unknown): number => Date.parse(String(v).endsWith('Z') ? String(v) : `${String(v)}Z`);

const cell = (value: unknown, column: string, type: string): string => {
  if (value === null || value === undefined) return '';
  if (isTimeType(type)) return macauTime(toTime(value));
  if (isMoney(column)) return mop(toNumber(value));
  if (Array.isArray(value)) return value.map(String).join(', ');
  // small probabilities (p-values) as 6.10e-5 rather than sixteen zeros
  if (/Float/.test(type) && typeof value === 'number' && value !== 0 && Math.abs(value) < 1e-3)
    return value.toExponential(2);
  return String(value);
};

const heading = (column: string, type: string): string =>
  isTimeType(type)
    ? `${column} (Macau time)`
    : isMoney(column)
      ? `${column.replace(/_mop$/, '')} (MOP)`
      : column;

const dataTable = ({ columns, rows }: QueryResult, limit: number): string => {
  const head = columns.map((c) => `<th scope="col">${escapeHtml(heading(c.name, c.type))}</th>`).join('');
  const body = rows
    .slice(0, limit)
    .map(
      (r) =>
        `<tr>${columns.map((c, i) => `<td${isMoney(c.name) ? ' class="num"' : ''}>${escapeHtml(cell(r[i], c.name, c.type))}</td>`).join('')}</tr>`,
    )
    .join('\n');
  const more = rows.length > limit ? `<p class="note">${rows.length - limit} more rows not shown.</p>` : '';
  return `<table><thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody></table>${more}`;
};

const formatterFor = (column: string): ((v: number) => string) =>
  isMoney(column) ? mop : (v) => v.toLocaleString('en-US');

const chart = (s: ReportSection, input: ReportInput): string => {
  const { columns, rows } = s.result;
  const title = s.panel.title;
  switch (s.panel.visualization) {
    case 'timeseries': {
      // time first; then either a series label and one value (long), or one column per series (wide)
      const long = columns.length === 3 && !isNumberType(columns[1]!.type);
      const points: LinePoint[] = long
        ? rows.map((r) => ({ t: toTime(r[0]), series: String(r[1]), value: toNumber(r[2]) }))
        : rows.flatMap((r) =>
            columns.slice(1).map((c, i) => ({
              t: toTime(r[0]),
              series: heading(c.name, c.type),
              value: toNumber(r[i + 1]),
            })),
          );
      return lineChart(points, input.range, input.intervalMs, (t) => macauTime(t).slice(11), title);
    }
    case 'barchart': {
      const labels = rows.map((r) => String(r[0]));
      const series = columns
        .slice(1)
        .map((c, i) => ({ name: heading(c.name, c.type), values: rows.map((r) => toNumber(r[i + 1])) }));
      return barChart(labels, series, formatterFor(columns[1]?.name ?? ''), title, s.panel.stacked === true);
    }
    case 'stat': {
      const c = columns[0]!;
      return `<p class="stat">${escapeHtml(cell(rows[0]?.[0] ?? 0, c.name, c.type))}</p>`;
    }
    case 'table':
      return '';
  }
};

const section = (s: ReportSection, input: ReportInput): string => {
  const empty = s.result.rows.length === 0;
  const drawn = empty ? '' : chart(s, input);
  const table = empty ? '<p class="note">Nothing to show for this day.</p>' : dataTable(s.result, 50);
  const data =
    drawn && s.panel.visualization !== 'stat'
      ? `<details><summary>Data</summary>${table}</details>`
      : drawn
        ? ''
        : table;
  return `<section id="${escapeHtml(s.panel.id)}" data-panel="${escapeHtml(s.panel.id)}">
<h3>${escapeHtml(s.panel.title)}</h3>
<p class="desc">${escapeHtml(s.panel.description)}</p>
${drawn}
${data}
</section>`;
};

const STYLE = `body{font-family:system-ui,sans-serif;margin:2rem auto;max-width:60rem;color:#222;padding:0 1rem}
h1{font-size:1.5rem}h2{border-bottom:1px solid #ccc;margin-top:2.5rem}h3{margin-bottom:.2rem}
.desc,.note{color:#555;font-size:.9rem;margin:.2rem 0 .6rem}
table{border-collapse:collapse;font-size:.85rem;margin:.5rem 0}th,td{border:1px solid #ddd;padding:.2rem .5rem;text-align:left}
th{background:#f3f3f3}td.num{text-align:right;white-space:nowrap}.stat{font-size:2rem;margin:.3rem 0}
summary{cursor:pointer;color:#0072B2}svg{max-width:100%;height:auto}`;

export const renderReport = (input: ReportInput): string => {
  const byDashboard = new Map<string, ReportSection[]>();
  for (const s of input.sections) byDashboard.set(s.dashboard, [...(byDashboard.get(s.dashboard) ?? []), s]);
  const body = [...byDashboard]
    .map(
      ([title, sections]) =>
        `<h2>${escapeHtml(title)}</h2>\n${sections.map((s) => section(s, input)).join('\n')}`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>table-audit morning report — ${escapeHtml(input.date)} (Macau)</title>
<style>${STYLE}</style>
</head>
<body>
<header>
<h1>table-audit morning report — ${escapeHtml(input.date)}</h1>
<p>The Macau day ${escapeHtml(input.date)}, ${escapeHtml(macauTime(input.range.from))} to ${escapeHtml(macauTime(input.range.to))}
Macau time (UTC+8). Times below are Macau time; money is in MOP. Made ${escapeHtml(formatMacauTime(input.generatedAt))}
from ${escapeHtml(input.source)}, with the same queries as the Grafana dashboards.</p>
</header>
<main>
${body}
</main>
</body>
</html>
`;
};
