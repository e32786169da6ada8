// The dashboard variables: concessionaire → casino → game → table narrow one another (each list is filtered by the
// ones before it), a round id for the drill-down, and the API's base URL for links to the disputed-hand page.
import * as dashboard from '@grafana/grafana-foundation-sdk/dashboard';
import type * as cog from '@grafana/grafana-foundation-sdk/cog';
import { datasource } from './grafana.ts';
import { scope, SCOPE_SOURCE, type ScopeVariable } from './scope.ts';

export type VariableName = ScopeVariable | 'round' | 'api_base_url';

/** Where the API (services/api) serves its web UI; a constant a deployment overrides in the provisioned JSON. */
export const DEFAULT_API_BASE_URL = 'http://localhost:3000';

const labels: Record<ScopeVariable, string> = {
  concessionaire: 'Concessionaire',
  casino: 'Casino',
  game: 'Game',
  table: 'Table',
};

/** The SQL behind a scope variable's list: its distinct values, narrowed by the variables before it. */
export const variableSql = (name: ScopeVariable): string => {
  const order: ScopeVariable[] = ['concessionaire', 'casino', 'game', 'table'];
  const before = order.slice(0, order.indexOf(name));
  const where = before.length ? `\nWHERE ${scope({ only: before })}` : '';
  return `SELECT DISTINCT ${SCOPE_SOURCE.columns[name]} FROM ${SCOPE_SOURCE.table}${where}\nORDER BY 1`;
};

/** What a variable's (i) says: Mah-Jong's outcomes are out of scope wherever the game can be chosen. */
const descriptions: Partial<Record<ScopeVariable, string>> = {
  game: 'F3CP, CRAPS, THIRTEEN_CARDS or MAHJONG. Mah-Jong: only the deal is judged (Portaria 52/89/M art. 1.º–2.º, the text held); winning hands, outcomes and payments are out of scope until the rest of the regulation is available.',
};

const scopeVariable = (name: ScopeVariable): cog.Builder<dashboard.VariableModel> => {
  const variable = new dashboard.QueryVariableBuilder(name)
    .label(labels[name])
    .datasource(datasource)
    .query(variableSql(name))
    .definition(variableSql(name))
    .multi(true)
    .includeAll(true)
    .current({ text: ['All'], value: ['$__all'], selected: true })
    .refresh(dashboard.VariableRefresh.OnTimeRangeChanged)
    .sort(dashboard.VariableSort.AlphabeticalAsc);
  const description = descriptions[name];
  return description === undefined ? variable : variable.description(description);
};

export const variableBuilders = (names: readonly VariableName[]): cog.Builder<dashboard.VariableModel>[] =>
  names.map((name) => {
    switch (name) {
      case 'round':
        return new dashboard.TextBoxVariableBuilder('round')
          .label('Round id')
          .description('The round to show: paste a round id from a findings table, or follow a link to it.');
      case 'api_base_url':
        return new dashboard.ConstantVariableBuilder('api_base_url')
          .label('API base URL')
          .description(
            "Where table-audit's API serves its web UI; the disputed-hand page is /ui/rounds/<round>.",
          )
          .value(DEFAULT_API_BASE_URL);
      default:
        return scopeVariable(name);
    }
  });
