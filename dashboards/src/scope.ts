// The scope filter every panel applies: the concessionaire, casino, game and table variables, each skipped when
// set to All ($__conditionalAll), each value single-quoted and escaped by Grafana (${var:singlequote}).

export type ScopeVariable = 'concessionaire' | 'casino' | 'game' | 'table';
export const SCOPE_VARIABLES: readonly ScopeVariable[] = ['concessionaire', 'casino', 'game', 'table'];

/** The column holding each scope value in the analytics tables (services/analytics migrations). */
export const SCOPE_COLUMNS: Readonly<Record<ScopeVariable, string>> = {
  concessionaire: 'concessionaire',
  casino: 'casino',
  game: 'game',
  table: 'table_id',
};

/** Where the variables' lists come from: every table that has opened (services/analytics `tables`). */
export const SCOPE_SOURCE = { table: 'tables FINAL', columns: SCOPE_COLUMNS } as const;

export interface ScopeOptions {
  /** Only these variables (default: all four). */
  readonly only?: readonly ScopeVariable[];
  /** A table alias to qualify the columns with (e.g. "f" → f.casino). */
  readonly alias?: string;
  /** Columns named differently in this table. */
  readonly columns?: Partial<Record<ScopeVariable, string>>;
}

/** `cond AND cond …` for the scope variables, to put in a WHERE clause. */
export const scope = (options: ScopeOptions = {}): string =>
  (options.only ?? SCOPE_VARIABLES)
    .map((v) => {
      const column = `${options.alias ? `${options.alias}.` : ''}${options.columns?.[v] ?? SCOPE_COLUMNS[v]}`;
      return `$__conditionalAll(${column} IN (\${${v}:singlequote}), $${v})`;
    })
    .join('\n  AND ');
