#!/bin/bash
# Run once by the ClickHouse image on an empty data directory (/docker-entrypoint-initdb.d): the read-only user
# Grafana's data source uses (infra/grafana/provisioning/datasources), its password from the environment (.env).
set -euo pipefail
clickhouse client --user "$CLICKHOUSE_USER" --password "$CLICKHOUSE_PASSWORD" --multiquery <<SQL
CREATE USER IF NOT EXISTS grafana IDENTIFIED WITH sha256_password BY '${CLICKHOUSE_GRAFANA_PASSWORD}'
  SETTINGS readonly = 1;
GRANT SELECT ON ${CLICKHOUSE_DB}.* TO grafana;
SQL
