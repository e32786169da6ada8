// The ClickHouse data source as the SDK sees it: the SDK has no builder for grafana-clickhouse-datasource queries,
// so this is one, producing the query model the plugin (v4) stores in a panel's targets.
import type * as cog from '@grafana/grafana-foundation-sdk/cog';
import type * as common from '@grafana/grafana-foundation-sdk/common';
import type { PanelQuery } from './panel.ts';

export const CLICKHOUSE_PLUGIN = 'grafana-clickhouse-datasource';
/** The uid the provisioned data source gets and every panel and variable refers to. */
export const DATASOURCE_UID = 'table-audit-clickhouse';
export const datasource: common.DataSourceRef = { type: CLICKHOUSE_PLUGIN, uid: DATASOURCE_UID };

/**
 * The plugin's query model (src/types/sql.ts of grafana-clickhouse-datasource, CHSqlQuery): SQL editor, raw SQL,
 * `queryType` as the plugin spells it (`timeSeries`), and the sqlds `format` its backend reads (0 time series, 1
 * table).
 */
export interface ClickHouseQuery extends cog.Dataquery {
  refId: string;
  datasource: common.DataSourceRef;
  editorType: 'sql';
  queryType: 'table' | 'timeSeries';
  format: 0 | 1;
  rawSql: string;
}

export class ClickHouseQueryBuilder implements cog.Builder<ClickHouseQuery> {
  private readonly query: ClickHouseQuery;
  constructor(panel: Pick<PanelQuery, 'format' | 'sql'>, refId = 'A') {
    this.query = {
      refId,
      datasource,
      editorType: 'sql',
      queryType: panel.format === 'timeseries' ? 'timeSeries' : 'table',
      format: panel.format === 'timeseries' ? 0 : 1,
      rawSql: panel.sql,
      _implementsDataqueryVariant: () => {},
    };
  }
  build(): ClickHouseQuery {
    return this.query;
  }
}
