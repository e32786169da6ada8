// What a panel is, said once: its SQL (Grafana macros and dashboard variables in it, expanded by macros.ts) and
// what it promises to return. The Grafana dashboards, the morning report and the tests all read these.

/** A column a panel needs: its name and a pattern its ClickHouse type must match (e.g. /^U?Int64$/). */
export interface ExpectedColumn {
  readonly name: string;
  readonly type: RegExp;
}

export type Visualization = 'timeseries' | 'table' | 'barchart' | 'stat';

export interface PanelQuery {
  /** Stable id: `<dashboard uid>.<panel>`; the report and the tests refer to panels by it. */
  readonly id: string;
  readonly title: string;
  readonly description: string;
  readonly visualization: Visualization;
  /** Whether Grafana reads the result as a time series (a DateTime column first) or as a table. */
  readonly format: 'timeseries' | 'table';
  readonly sql: string;
  readonly columns: readonly ExpectedColumn[];
  /** Grafana unit for the value fields; money columns are MOP (`*_mop`), computed from integer avos. */
  readonly unit?: 'mop' | 'short' | 's' | 'percentunit';
  /** Bar charts: the value columns are parts of one whole (e.g. severities), drawn stacked. */
  readonly stacked?: boolean;
  /** Dashboard variables (besides the time range) the SQL refers to. Checked against the SQL by the tests. */
  readonly variables: readonly string[];
}

/** ClickHouse type patterns the panels use. Nullable/LowCardinality wrappers are allowed around the base type. */
const wrapped = (base: string): RegExp => new RegExp(`^(LowCardinality\\()?(Nullable\\()?(${base})\\)?\\)?$`);
export const types = {
  string: wrapped('String|FixedString\\(\\d+\\)'),
  enum: /^Enum(8|16)\(.*\)$/,
  count: wrapped('UInt64|Int64|UInt32|Int32'),
  integer: wrapped('U?Int(8|16|32|64)'),
  money: wrapped('Float64|Decimal\\(\\d+, \\d+\\)|Decimal(32|64|128)\\(\\d+\\)'),
  number: wrapped('Float64|Float32|U?Int(8|16|32|64)|Decimal.*'),
  time: wrapped("DateTime(\\('[^']+'\\))?|DateTime64\\(\\d(, '[^']+')?\\)"),
  date: wrapped('Date|Date32'),
  stringArray: /^Array\((LowCardinality\()?String\)?\)$/,
} as const;
