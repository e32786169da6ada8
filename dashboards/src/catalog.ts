// The panels for other parts of table-audit (the API's and web UI's charts): every panel by id with its SQL, and
// that SQL as Grafana's ClickHouse data source would send it for a time range and variables — so a chart elsewhere
// shows exactly what the dashboard shows.
import { panels } from './dashboards.ts';
import { expandMacros, MacroError, type MacroContext, type VariableSelection } from './macros.ts';
import type { PanelQuery } from './panel.ts';
import { SCOPE_VARIABLES } from './scope.ts';

/** Every panel: id, title, description, SQL (with macros), the columns it returns, the variables it reads. */
export const listPanels = (): readonly PanelQuery[] => [...panels.values()];

/** Every scope variable on All, as a dashboard opens; `overrides` picks values (e.g. a concessionaire's own). */
export const allScope = (
  overrides: Readonly<Record<string, readonly string[]>> = {},
): Record<string, VariableSelection> =>
  Object.fromEntries(
    SCOPE_VARIABLES.map((v) => [v, overrides[v] ? { values: overrides[v] } : { values: [], all: true }]),
  );

/** The SQL of panel `id` with its macros and variables expanded; refuses an unknown id or a missing variable. */
export function panelSql(id: string, ctx: MacroContext): string {
  const panel = panels.get(id);
  if (!panel)
    throw new MacroError(`no dashboard panel "${id}"; the panels are: ${[...panels.keys()].join(', ')}`);
  return expandMacros(panel.sql, ctx);
}
