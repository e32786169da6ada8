/**
 * The ClickHouse schema, as versioned migrations applied in order at start-up (see migrate.ts). A migration is
 * never edited once released: its checksum is recorded and a changed one is refused. Add a new version instead,
 * and add columns rather than rename them (dashboards and the API query these names).
 *
 * Every projected table is a ReplacingMergeTree whose version is the event store's global position of the event
 * the row came from: a batch delivered twice (a crash between the insert and the checkpoint) inserts the same rows
 * with the same key and version, and queries read `FINAL`, so no duplicate is ever visible. Times are UTC
 * DateTime64(3); `macau_date` is the Macau local date (UTC+8) of the row's event, the day an inspector means.
 * Partitions are by month of the Macau date; sort keys lead with what the findings command and the dashboards
 * filter on (casino, then date, then table). Money is Int64 avos (1/100 MOP).
 */
export interface Migration {
  readonly version: number;
  readonly name: string;
  /** Statements run one by one (ClickHouse takes one statement per request). */
  readonly statements: readonly string[];
}

export const MIGRATIONS_TABLE = 'schema_migrations';

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'findings, table health, ingest rejects, alert states',
    statements: [
      `CREATE TABLE IF NOT EXISTS findings (
        finding_id String,
        check_id LowCardinality(String),
        title LowCardinality(String),
        severity LowCardinality(String),
        handled Bool,
        rule_set LowCardinality(String),
        game LowCardinality(String),
        casino LowCardinality(String),
        concessionaire LowCardinality(String),
        table_id LowCardinality(String),
        round_id Nullable(String),
        dealer_id LowCardinality(Nullable(String)),
        seats Array(UInt16),
        players Array(String),
        summary String,
        expected String,
        declared String,
        discrepancy_avos Nullable(Int64),
        citation_keys Array(LowCardinality(String)),
        citation_references Array(LowCardinality(String)),
        interpretation_ids Array(LowCardinality(String)),
        evidence_event_ids Array(String),
        event_time DateTime64(3, 'UTC'),
        macau_date Date,
        details Nullable(String),
        store_event_id String,
        position UInt64
      ) ENGINE = ReplacingMergeTree(position)
      PARTITION BY toYYYYMM(macau_date)
      ORDER BY (casino, macau_date, table_id, check_id, finding_id)`,

      `CREATE TABLE IF NOT EXISTS table_health (
        event_id String,
        kind LowCardinality(String),
        table_id LowCardinality(String),
        casino LowCardinality(String),
        concessionaire LowCardinality(String),
        game LowCardinality(String),
        round_id Nullable(String),
        staff_id LowCardinality(Nullable(String)),
        shuffler_id LowCardinality(Nullable(String)),
        new_shuffler_id LowCardinality(Nullable(String)),
        during_deal Nullable(Bool),
        void_reason LowCardinality(Nullable(String)),
        misdeal Bool,
        authorised_by LowCardinality(Nullable(String)),
        detail String,
        event_time DateTime64(3, 'UTC'),
        macau_date Date,
        position UInt64
      ) ENGINE = ReplacingMergeTree(position)
      PARTITION BY toYYYYMM(macau_date)
      ORDER BY (casino, table_id, macau_date, kind, event_id)`,

      `CREATE TABLE IF NOT EXISTS ingest_rejects (
        reject_id String,
        code LowCardinality(String),
        reason String,
        source_kind LowCardinality(String),
        source LowCardinality(String),
        source_text String,
        kafka_partition Nullable(Int32),
        kafka_offset Nullable(String),
        file_block Nullable(Int64),
        record_index Nullable(Int64),
        decoded Nullable(String),
        raw_bytes UInt32,
        received_time DateTime64(3, 'UTC'),
        macau_date Date,
        position UInt64
      ) ENGINE = ReplacingMergeTree(position)
      PARTITION BY toYYYYMM(macau_date)
      ORDER BY (macau_date, code, source, reject_id)`,

      // projected from the API's Alert* events (migration 3 adds columns); one row per change, the latest (version)
      // is the state
      `CREATE TABLE IF NOT EXISTS alert_states (
        finding_id String,
        state Enum8('open' = 1, 'acknowledged' = 2, 'resolved' = 3),
        assignee LowCardinality(Nullable(String)),
        note String,
        changed_by LowCardinality(String),
        changed_at DateTime64(3, 'UTC'),
        opened_at DateTime64(3, 'UTC'),
        acknowledged_at Nullable(DateTime64(3, 'UTC')),
        resolved_at Nullable(DateTime64(3, 'UTC')),
        check_id LowCardinality(String),
        severity LowCardinality(String),
        casino LowCardinality(String),
        table_id LowCardinality(String),
        macau_date Date,
        version UInt64
      ) ENGINE = ReplacingMergeTree(version)
      PARTITION BY toYYYYMM(macau_date)
      ORDER BY (casino, finding_id)`,

      `CREATE TABLE IF NOT EXISTS alert_state_changes (
        finding_id String,
        state Enum8('open' = 1, 'acknowledged' = 2, 'resolved' = 3),
        assignee LowCardinality(Nullable(String)),
        note String,
        changed_by LowCardinality(String),
        changed_at DateTime64(3, 'UTC'),
        change_id String
      ) ENGINE = ReplacingMergeTree
      PARTITION BY toYYYYMM(changed_at)
      ORDER BY (finding_id, changed_at, change_id)`,

      // what a finding needs of its round and table before RoundDerived records exist: the dealer and the game
      `CREATE TABLE IF NOT EXISTS round_starts (
        round_id String,
        table_id LowCardinality(String),
        casino LowCardinality(String),
        concessionaire LowCardinality(String),
        game LowCardinality(String),
        round_number Int64,
        dealer_id LowCardinality(Nullable(String)),
        shuffle_id Nullable(String),
        event_time DateTime64(3, 'UTC'),
        macau_date Date,
        position UInt64
      ) ENGINE = ReplacingMergeTree(position)
      PARTITION BY toYYYYMM(macau_date)
      ORDER BY (casino, table_id, macau_date, round_id)`,

      `CREATE TABLE IF NOT EXISTS tables (
        table_id String,
        casino LowCardinality(String),
        concessionaire LowCardinality(String),
        game LowCardinality(String),
        seats UInt16,
        shuffle_mode LowCardinality(String),
        currency LowCardinality(String),
        opened_at DateTime64(3, 'UTC'),
        position UInt64
      ) ENGINE = ReplacingMergeTree(position)
      ORDER BY table_id`,
    ],
  },
  {
    version: 2,
    name: 'rounds and bets (from RoundDerived)',
    statements: [
      `CREATE TABLE IF NOT EXISTS rounds (
        round_id String,
        table_id LowCardinality(String),
        casino LowCardinality(String),
        concessionaire LowCardinality(String),
        game LowCardinality(String),
        rule_set LowCardinality(Nullable(String)),
        macau_date Date,
        round_start DateTime64(3, 'UTC'),
        dealer_id LowCardinality(Nullable(String)),
        status LowCardinality(String),
        status_reason Nullable(String),
        total_staked_avos Int64,
        expected_paid_avos Int64,
        declared_paid_avos Int64,
        paid_difference_avos Int64,
        house_result_avos Int64,
        bet_count UInt32,
        finding_count UInt32,
        finding_ids Array(String),
        interpretation_ids Array(LowCardinality(String)),
        store_event_id String,
        position UInt64
      ) ENGINE = ReplacingMergeTree(position)
      PARTITION BY toYYYYMM(macau_date)
      ORDER BY (casino, macau_date, table_id, round_id)`,

      `CREATE TABLE IF NOT EXISTS bets (
        round_id String,
        line_index UInt16,
        table_id LowCardinality(String),
        casino LowCardinality(String),
        concessionaire LowCardinality(String),
        game LowCardinality(String),
        rule_set LowCardinality(Nullable(String)),
        macau_date Date,
        round_start DateTime64(3, 'UTC'),
        dealer_id LowCardinality(Nullable(String)),
        seat UInt16,
        bet_type LowCardinality(String),
        bet_id Nullable(String),
        stake_avos Int64,
        expected_outcome LowCardinality(String),
        expected_payout_avos Int64,
        expected_net_avos Int64,
        declared_payout_avos Nullable(Int64),
        declared_net_avos Nullable(Int64),
        difference_avos Nullable(Int64),
        position UInt64
      ) ENGINE = ReplacingMergeTree(position)
      PARTITION BY toYYYYMM(macau_date)
      ORDER BY (casino, macau_date, table_id, round_id, line_index)`,
    ],
  },
  {
    version: 3,
    name: "alert workflow projected from the API's Alert* events",
    statements: [
      // the state of an alert: its finding's scope (so dashboards filter it like any table), the disposition it was
      // resolved with, how often it was reopened and the event that last changed it
      ...[
        "concessionaire LowCardinality(String) DEFAULT ''",
        "game LowCardinality(String) DEFAULT ''",
        'round_id Nullable(String)',
        'disposition LowCardinality(Nullable(String))',
        'reopened UInt16 DEFAULT 0',
        "last_event LowCardinality(String) DEFAULT ''",
      ].map((c) => `ALTER TABLE alert_states ADD COLUMN IF NOT EXISTS ${c}`),
      // one row per Alert* event: the state after it, so the state before any position can be read back
      ...[
        "opened_at DateTime64(3, 'UTC') DEFAULT 0",
        "acknowledged_at Nullable(DateTime64(3, 'UTC'))",
        "resolved_at Nullable(DateTime64(3, 'UTC'))",
        'disposition LowCardinality(Nullable(String))',
        'reopened UInt16 DEFAULT 0',
        "last_event LowCardinality(String) DEFAULT ''",
        "check_id LowCardinality(String) DEFAULT ''",
        "severity LowCardinality(String) DEFAULT ''",
        "concessionaire LowCardinality(String) DEFAULT ''",
        "casino LowCardinality(String) DEFAULT ''",
        "game LowCardinality(String) DEFAULT ''",
        "table_id LowCardinality(String) DEFAULT ''",
        'round_id Nullable(String)',
        'macau_date Date DEFAULT 0',
        'version UInt64 DEFAULT 0',
      ].map((c) => `ALTER TABLE alert_state_changes ADD COLUMN IF NOT EXISTS ${c}`),
    ],
  },
  {
    version: 4,
    name: 'over- and under-payment per round; bloom filters on round ids',
    statements: [
      // the bets' positive and negative differences summed per round (underpaid as a positive amount): the
      // dashboards' discrepancy panels read the rounds (one row a round) instead of every bet under FINAL
      'ALTER TABLE rounds ADD COLUMN IF NOT EXISTS overpaid_avos Int64 DEFAULT 0',
      'ALTER TABLE rounds ADD COLUMN IF NOT EXISTS underpaid_avos Int64 DEFAULT 0',
      // rounds projected before this migration: the same row again, same version, with its bets' sums (the later
      // insert of an equal version is the one ReplacingMergeTree keeps)
      `INSERT INTO rounds SELECT r.* REPLACE (b.over AS overpaid_avos, b.under AS underpaid_avos)
        FROM rounds AS r FINAL
        INNER JOIN (
          SELECT round_id, ifNull(sumIf(difference_avos, difference_avos > 0), 0) AS over,
            -ifNull(sumIf(difference_avos, difference_avos < 0), 0) AS under
          FROM bets FINAL WHERE difference_avos != 0 GROUP BY round_id
        ) AS b ON b.round_id = r.round_id`,
      // the round drill-down and the API look a round up by id alone, outside the sort key's leading columns
      'ALTER TABLE bets ADD INDEX IF NOT EXISTS round_id_bloom round_id TYPE bloom_filter GRANULARITY 1',
      'ALTER TABLE rounds ADD INDEX IF NOT EXISTS round_id_bloom round_id TYPE bloom_filter GRANULARITY 1',
      'ALTER TABLE findings ADD INDEX IF NOT EXISTS round_id_bloom round_id TYPE bloom_filter GRANULARITY 1',
      'ALTER TABLE bets MATERIALIZE INDEX round_id_bloom SETTINGS mutations_sync = 2',
      'ALTER TABLE rounds MATERIALIZE INDEX round_id_bloom SETTINGS mutations_sync = 2',
      'ALTER TABLE findings MATERIALIZE INDEX round_id_bloom SETTINGS mutations_sync = 2',
    ],
  },
  {
    version: 5,
    name: 'discrepant rounds, a round index by id, the casino of ingest rejects',
    statements: [
      // The discrepancy panels read the rounds whose bets were paid over or under (overpaid_avos, underpaid_avos),
      // not a month of rounds merged under FINAL. Kept per round, versioned like rounds, not summed per hour: a
      // SummingMergeTree would count a batch handed over again twice, and a round derived again (other rules
      // code) under both derivations. A round with nothing paid wrong is written here only when an earlier
      // derivation of it was: its zero row replaces the old one. The projector writes one derivation of a round
      // per insert (the latest), so the view's lookup sees every earlier one.
      `CREATE TABLE IF NOT EXISTS round_discrepancies (
        round_id String,
        table_id LowCardinality(String),
        casino LowCardinality(String),
        concessionaire LowCardinality(String),
        game LowCardinality(String),
        dealer_id LowCardinality(Nullable(String)),
        macau_date Date,
        round_start DateTime64(3, 'UTC'),
        overpaid_avos Int64,
        underpaid_avos Int64,
        position UInt64
      ) ENGINE = ReplacingMergeTree(position)
      PARTITION BY toYYYYMM(macau_date)
      ORDER BY (casino, table_id, round_id)`,
      `CREATE MATERIALIZED VIEW IF NOT EXISTS round_discrepancies_mv TO round_discrepancies AS
      SELECT round_id, table_id, casino, concessionaire, game, dealer_id, macau_date, round_start, overpaid_avos,
        underpaid_avos, position
      FROM rounds
      WHERE overpaid_avos != 0 OR underpaid_avos != 0
        OR (casino, table_id, round_id) IN (SELECT casino, table_id, round_id FROM round_discrepancies)`,
      `INSERT INTO round_discrepancies SELECT round_id, table_id, casino, concessionaire, game, dealer_id, macau_date,
        round_start, overpaid_avos, underpaid_avos, position
      FROM rounds FINAL WHERE overpaid_avos != 0 OR underpaid_avos != 0`,

      // Where a round's rows lie in the sort keys of rounds, bets and findings (which lead with casino, date and
      // table): the round drill-down finds a round by id here, then reads its rows by their sorting key.
      `CREATE TABLE IF NOT EXISTS round_index (
        round_id String,
        source LowCardinality(String),
        casino LowCardinality(String),
        macau_date Date,
        table_id LowCardinality(String)
      ) ENGINE = ReplacingMergeTree
      ORDER BY (round_id, source, casino, macau_date, table_id)`,
      `CREATE MATERIALIZED VIEW IF NOT EXISTS round_index_rounds_mv TO round_index AS
      SELECT round_id, 'rounds' AS source, casino, macau_date, table_id FROM rounds`,
      `CREATE MATERIALIZED VIEW IF NOT EXISTS round_index_findings_mv TO round_index AS
      SELECT assumeNotNull(round_id) AS round_id, 'findings' AS source, casino, macau_date, table_id
      FROM findings WHERE round_id IS NOT NULL`,
      `INSERT INTO round_index SELECT DISTINCT round_id, 'rounds', casino, macau_date, table_id FROM rounds`,
      `INSERT INTO round_index SELECT DISTINCT assumeNotNull(round_id), 'findings', casino, macau_date, table_id
      FROM findings WHERE round_id IS NOT NULL`,

      // an ingest reject's table, casino and concessionaire, from the event when it decoded; 'unknown' otherwise
      "ALTER TABLE ingest_rejects ADD COLUMN IF NOT EXISTS table_id LowCardinality(String) DEFAULT 'unknown'",
      "ALTER TABLE ingest_rejects ADD COLUMN IF NOT EXISTS casino LowCardinality(String) DEFAULT 'unknown'",
      "ALTER TABLE ingest_rejects ADD COLUMN IF NOT EXISTS concessionaire LowCardinality(String) DEFAULT 'unknown'",
      // rejects projected before: the same row again, same version, with what their decoded event names
      `INSERT INTO ingest_rejects SELECT * REPLACE (
          ${['tableId', 'casino', 'concessionaire']
            .map(
              (k, i) =>
                `ifNull(nullIf(JSONExtractString(decoded, 'data', 'header', '${k}'), ''), 'unknown') AS ` +
                ['table_id', 'casino', 'concessionaire'][i]!,
            )
            .join(', ')})
        FROM ingest_rejects FINAL WHERE decoded IS NOT NULL`,
    ],
  },
];
