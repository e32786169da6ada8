// Grafana's ClickHouse data source (grafana-clickhouse-datasource v4) turns a panel's raw SQL into what reaches
// ClickHouse in three steps, reproduced here so that tests (and the morning report) run exactly that SQL:
//  1. in the browser, `$__conditionalAll(condition, $var)` becomes `1=1` when the variable is set to All (or empty);
//  2. in the browser, template variables are interpolated: `${var:singlequote}` quotes each value ('a','b', a quote
//     escaped as \'), `${var:raw}` / `${var:csv}` join them with commas, and a bare `$var` / `${var}` uses the
//     plugin's own format: a multi-value selection becomes 'a','b', a single value is inserted as it is;
//  3. in the plugin's backend, time macros: `$__timeFilter(col)` is `col >= toDateTime(from) AND col <=
//     toDateTime(to)` in Unix seconds, `$__timeFilter_ms(col)` the same with fromUnixTimestamp64Milli, `$__fromTime` /
//     `$__toTime` are toDateTime(seconds), `$__dateFilter(col)` compares with toDate('YYYY-MM-DD') (UTC dates, as
//     the plugin formats them), `$__timeInterval(col)` is toStartOfInterval(toDateTime(col), INTERVAL n second)
//     with n the panel interval in whole seconds (at least 1), `$__interval_s` is n.
// Anything else that looks like a macro or a variable is an error, so a typo in a panel fails its test.

/** A dashboard variable's current selection. `all` is Grafana's "All" (current value `$__all`). */
export interface VariableSelection {
  readonly values: readonly string[];
  readonly all?: boolean;
}

export interface MacroContext {
  /** The dashboard time range, UTC milliseconds. */
  readonly from: number;
  readonly to: number;
  /** The panel's interval in milliseconds ($__interval), as Grafana computes it from the range and width. */
  readonly intervalMs: number;
  readonly variables: Readonly<Record<string, VariableSelection>>;
}

export class MacroError extends Error {
  override readonly name = 'MacroError';
}

const macroArgs = (sql: string, open: number, macro: string): { args: string[]; end: number } => {
  // `open` is the index of the '('; arguments split on top-level commas, like the plugin's getMacroArgs.
  let depth = 0;
  let start = open + 1;
  const args: string[] = [];
  for (let i = open; i < sql.length; i++) {
    const c = sql[i];
    if (c === '(') depth++;
    else if (c === ')') {
      depth--;
      if (depth === 0) {
        args.push(sql.slice(start, i));
        return { args, end: i + 1 };
      }
    } else if (c === ',' && depth === 1) {
      args.push(sql.slice(start, i));
      start = i + 1;
    }
  }
  throw new MacroError(`${macro}: no closing parenthesis after position ${open}`);
};

const selectionOf = (ctx: MacroContext, name: string, where: string): VariableSelection => {
  const selection = ctx.variables[name];
  if (!selection) throw new MacroError(`${where}: no value given for dashboard variable "${name}"`);
  return selection;
};

/** Step 1: $__conditionalAll(condition, $var), last occurrence first as the plugin does. */
const applyConditionalAll = (sql: string, ctx: MacroContext): string => {
  const macro = '$__conditionalAll(';
  let at = sql.lastIndexOf(macro);
  while (at !== -1) {
    const { args, end } = macroArgs(sql, at + macro.length - 1, '$__conditionalAll');
    if (args.length !== 2) throw new MacroError(`$__conditionalAll takes 2 arguments, got ${args.length}`);
    const [condition, variable] = args as [string, string];
    const name = /^\s*\$\{?(\w+)\}?\s*$/.exec(variable)?.[1];
    if (!name)
      throw new MacroError(`$__conditionalAll: second argument "${variable.trim()}" is not a variable`);
    const selection = selectionOf(ctx, name, '$__conditionalAll');
    const everything = selection.all === true || selection.values.length === 0;
    sql = sql.slice(0, at) + (everything ? '1=1' : condition) + sql.slice(end);
    at = sql.lastIndexOf(macro);
  }
  return sql;
};

const singleQuote = (v: string): string => `'${v.replace(/'/g, "\\'")}'`;

/** Step 2: template variables. `$__` names are macros, left for step 3. */
const interpolate = (sql: string, ctx: MacroContext): string =>
  sql.replace(/\$\{(\w+)(?::(\w+))?\}|\$(\w+)/g, (whole, braced?: string, format?: string, bare?: string) => {
    const name = (braced ?? bare) as string;
    if (name.startsWith('__')) return whole;
    const { values } = selectionOf(ctx, name, whole);
    switch (format) {
      case undefined:
        // The plugin's own format: arrays quoted, a single value as it is.
        return values.length === 1 ? (values[0] as string) : `'${values.join("','")}'`;
      case 'singlequote':
        return values.map(singleQuote).join(',');
      case 'raw':
      case 'csv':
        return values.join(',');
      default:
        throw new MacroError(
          `${whole}: format "${format}" is not one the dashboards use (singlequote, raw, csv)`,
        );
    }
  });

const seconds = (ms: number): number => Math.floor(ms / 1000);
const utcDate = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** Step 3: the backend's time macros. */
const applyTimeMacros = (sql: string, ctx: MacroContext): string => {
  const intervalSeconds = Math.max(Math.floor(ctx.intervalMs / 1000), 1);
  const withColumn = (macro: string, args: string[], expand: (column: string) => string): string => {
    if (args.length !== 1 || args[0]!.trim() === '')
      throw new MacroError(`${macro} takes 1 argument (a column), got ${args.length}`);
    return expand(args[0]!.trim());
  };
  const functions: Record<string, (args: string[]) => string> = {
    timeFilter: (a) =>
      withColumn(
        '$__timeFilter',
        a,
        (c) => `${c} >= toDateTime(${seconds(ctx.from)}) AND ${c} <= toDateTime(${seconds(ctx.to)})`,
      ),
    timeFilter_ms: (a) =>
      withColumn(
        '$__timeFilter_ms',
        a,
        (c) =>
          `${c} >= fromUnixTimestamp64Milli(${ctx.from}) AND ${c} <= fromUnixTimestamp64Milli(${ctx.to})`,
      ),
    dateFilter: (a) =>
      withColumn(
        '$__dateFilter',
        a,
        (c) => `${c} >= toDate('${utcDate(ctx.from)}') AND ${c} <= toDate('${utcDate(ctx.to)}')`,
      ),
    timeInterval: (a) =>
      withColumn(
        '$__timeInterval',
        a,
        (c) => `toStartOfInterval(toDateTime(${c}), INTERVAL ${intervalSeconds} second)`,
      ),
  };
  const constants: Record<string, string> = {
    fromTime: `toDateTime(${seconds(ctx.from)})`,
    toTime: `toDateTime(${seconds(ctx.to)})`,
    fromTime_ms: `fromUnixTimestamp64Milli(${ctx.from})`,
    toTime_ms: `fromUnixTimestamp64Milli(${ctx.to})`,
    interval_s: String(intervalSeconds),
  };
  let out = '';
  let i = 0;
  const re = /\$__(\w+)/g;
  for (let m = re.exec(sql); m; m = re.exec(sql)) {
    const name = m[1] as string;
    out += sql.slice(i, m.index);
    const afterName = m.index + m[0].length;
    const fn = functions[name];
    if (fn) {
      if (sql[afterName] !== '(') throw new MacroError(`$__${name} needs its argument in parentheses`);
      const { args, end } = macroArgs(sql, afterName, `$__${name}`);
      out += fn(args);
      i = end;
    } else if (name in constants) {
      out += constants[name];
      // The plugin also accepts `$__fromTime()`; an empty pair of parentheses is part of the macro.
      i = sql.startsWith('()', afterName) ? afterName + 2 : afterName;
    } else {
      throw new MacroError(`$__${name} is not a macro of the ClickHouse data source`);
    }
    re.lastIndex = i;
  }
  return out + sql.slice(i);
};

/** The SQL Grafana's ClickHouse data source would send for this panel SQL, time range and selection. */
export const expandMacros = (sql: string, ctx: MacroContext): string => {
  if (!(Number.isSafeInteger(ctx.from) && Number.isSafeInteger(ctx.to) && ctx.from <= ctx.to))
    throw new MacroError(
      `time range: from ${ctx.from} and to ${ctx.to} must be UTC milliseconds, from <= to`,
    );
  return applyTimeMacros(interpolate(applyConditionalAll(sql, ctx), ctx), ctx);
};
