// The five dashboards and every panel's SQL, over the tables of services/analytics (its migrations). Said once:
// the Grafana JSON (build.ts), the morning report and the tests all read these specs.
import type { DashboardSpec } from './build.ts';
import { types, type PanelQuery } from './panel.ts';
import { scope, SCOPE_VARIABLES } from './scope.ts';
import { currentBets } from '@table-audit/analytics';

const SCOPE = [...SCOPE_VARIABLES];
const panel = (p: Omit<PanelQuery, 'variables'> & { variables?: readonly string[] }): PanelQuery => ({
  variables: SCOPE,
  ...p,
});

// Money: the tables hold integer avos; panels show MOP (avos / 100) in columns named *_mop.
// Per bet, declared minus expected: rounds carry the sums of their bets' positive (overpaid_avos) and negative
// (underpaid_avos, as a positive amount) differences, and round_discrepancies (migration 5) holds the rounds where
// either is not zero (plus zero rows for rounds derived again and paid right), so a month of discrepancies is read
// from the rounds paid wrongly, not from every round merged under FINAL.
const OVERPAID = 'sum(overpaid_avos) / 100';
const UNDERPAID = 'sum(underpaid_avos) / 100';
const DISCREPANT = '(overpaid_avos != 0 OR underpaid_avos != 0)';

/** A shift of the Macau day, by the hour a round started in Macau time (interpretation of the casinos' rosters). */
const macauHour = (time: string): string => `toHour(${time}, 'Asia/Macau')`;
const SHIFT = (time: string): string =>
  `multiIf(${macauHour(time)} < 8, 'night 00:00–08:00', ${macauHour(time)} < 16, 'day 08:00–16:00', ` +
  `'swing 16:00–24:00')`;

// ---------------------------------------------------------------------------------------------- DICJ overview
const overview = 'ta-dicj-overview';
const findingsOverTime = panel({
  id: `${overview}.findings-over-time`,
  title: 'Findings over time by casino',
  description: 'Findings raised by the replay, per time bucket and casino (handled breaches included).',
  visualization: 'timeseries',
  format: 'timeseries',
  sql: `SELECT $__timeInterval(event_time) AS time, casino, count() AS findings
FROM findings FINAL
WHERE $__timeFilter(event_time)
  AND ${scope()}
GROUP BY time, casino
ORDER BY time, casino`,
  columns: [
    { name: 'time', type: types.time },
    { name: 'casino', type: types.string },
    { name: 'findings', type: types.count },
  ],
});

const findingsByCheck = panel({
  id: `${overview}.findings-by-check`,
  title: 'Findings by check and severity',
  description: 'How many findings each check raised in the time range, split by severity.',
  visualization: 'barchart',
  stacked: true,
  format: 'table',
  sql: `SELECT check_id,
  countIf(severity = 'critical') AS critical,
  countIf(severity = 'high') AS high,
  countIf(severity = 'medium') AS medium,
  countIf(severity = 'low') AS low
FROM findings FINAL
WHERE $__timeFilter(event_time)
  AND ${scope()}
GROUP BY check_id
ORDER BY count() DESC, check_id`,
  columns: [
    { name: 'check_id', type: types.string },
    { name: 'critical', type: types.count },
    { name: 'high', type: types.count },
    { name: 'medium', type: types.count },
    { name: 'low', type: types.count },
  ],
});

const findingsByGame = panel({
  id: `${overview}.findings-by-casino-game`,
  title: 'Findings by casino and game',
  description:
    'Findings per casino and game in the time range. Mah-Jong: the deal only (Portaria 52/89/M art. 1.º–2.º); its outcomes are out of scope until the rest of the regulation is available.',
  visualization: 'barchart',
  format: 'table',
  sql: `SELECT concat(casino, ' · ', game) AS casino_game, count() AS findings
FROM findings FINAL
WHERE $__timeFilter(event_time)
  AND ${scope()}
GROUP BY casino_game
ORDER BY findings DESC, casino_game`,
  columns: [
    { name: 'casino_game', type: types.string },
    { name: 'findings', type: types.count },
  ],
});

const discrepanciesOverTime = panel({
  id: `${overview}.payout-discrepancies-over-time`,
  title: 'Payout discrepancies: over- and under-payment',
  description:
    'Declared minus expected payout per bet, summed per time bucket: overpaid (the player got more than the rules ' +
    'give) and underpaid (less), in MOP, kept apart so they do not cancel out.',
  visualization: 'timeseries',
  format: 'timeseries',
  sql: `SELECT $__timeInterval(round_start) AS time, ${OVERPAID} AS overpaid_mop, ${UNDERPAID} AS underpaid_mop
FROM round_discrepancies FINAL
WHERE $__timeFilter(round_start)
  AND ${DISCREPANT}
  AND ${scope()}
GROUP BY time
ORDER BY time`,
  columns: [
    { name: 'time', type: types.time },
    { name: 'overpaid_mop', type: types.money },
    { name: 'underpaid_mop', type: types.money },
  ],
  unit: 'mop',
});

const topTables = panel({
  id: `${overview}.top-tables`,
  title: 'Top tables',
  description: 'The tables with the most findings in the time range, with their payout discrepancies (MOP).',
  visualization: 'table',
  format: 'table',
  sql: `SELECT f.table_id AS table_id, f.casino AS casino, count() AS findings,
  countIf(f.severity IN ('critical', 'high')) AS critical_or_high,
  any(b.overpaid_mop) AS overpaid_mop, any(b.underpaid_mop) AS underpaid_mop
FROM findings AS f FINAL
LEFT JOIN (
  SELECT table_id, ${OVERPAID} AS overpaid_mop, ${UNDERPAID} AS underpaid_mop
  FROM round_discrepancies FINAL
  WHERE $__timeFilter(round_start)
    AND ${DISCREPANT}
  GROUP BY table_id
) AS b ON b.table_id = f.table_id
WHERE $__timeFilter(f.event_time)
  AND ${scope({ alias: 'f' })}
GROUP BY f.table_id, f.casino
ORDER BY findings DESC, table_id
LIMIT 10`,
  columns: [
    { name: 'table_id', type: types.string },
    { name: 'casino', type: types.string },
    { name: 'findings', type: types.count },
    { name: 'critical_or_high', type: types.count },
    { name: 'overpaid_mop', type: types.money },
    { name: 'underpaid_mop', type: types.money },
  ],
  unit: 'mop',
});

const topDealers = panel({
  id: `${overview}.top-dealers`,
  title: 'Top dealers',
  description: 'The dealers on duty for the most findings in the time range.',
  visualization: 'table',
  format: 'table',
  sql: `SELECT assumeNotNull(dealer_id) AS dealer, casino, count() AS findings,
  uniqExact(table_id) AS tables, groupUniqArray(5)(check_id) AS checks
FROM findings FINAL
WHERE $__timeFilter(event_time)
  AND dealer_id IS NOT NULL
  AND ${scope()}
GROUP BY dealer, casino
ORDER BY findings DESC, dealer, casino
LIMIT 10`,
  columns: [
    { name: 'dealer', type: types.string },
    { name: 'casino', type: types.string },
    { name: 'findings', type: types.count },
    { name: 'tables', type: types.count },
    { name: 'checks', type: types.stringArray },
  ],
});

/**
 * Every finding not handled at the table is an alert (services/api), open until resolved; alert_states holds the
 * alerts someone worked (projected from the API's Alert* events), so an alert without a row there is open.
 * (LEFT JOIN without join_use_nulls: a finding with no alert row gets a.finding_id = ''.)
 */
const ALERTS = `findings AS f FINAL
LEFT JOIN (
  SELECT finding_id, state, assignee FROM alert_states FINAL
  WHERE ${scope()}
) AS a ON a.finding_id = f.finding_id
WHERE NOT f.handled
  AND (a.finding_id = '' OR a.state != 'resolved')
  AND ${scope({ alias: 'f' })}`;

const openAlertsByAge = panel({
  id: `${overview}.open-alerts-by-age`,
  title: 'Open alerts by age',
  description:
    'Alerts not yet resolved (every finding not handled at the table, open or acknowledged), by how long ago ' +
    'the finding was raised (now, not the time range).',
  visualization: 'barchart',
  format: 'table',
  sql: `SELECT multiIf(age < 3600, 'under 1 h', age < 4 * 3600, '1–4 h', age < 86400, '4–24 h',
    age < 7 * 86400, '1–7 days', 'over 7 days') AS age_band,
  count() AS open_alerts,
  countIf(state = 'acknowledged') AS acknowledged
FROM (
  SELECT dateDiff('second', f.event_time, now()) AS age, if(a.finding_id = '', 'open', toString(a.state)) AS state
  FROM ${ALERTS}
)
GROUP BY age_band
ORDER BY min(age)`,
  columns: [
    { name: 'age_band', type: types.string },
    { name: 'open_alerts', type: types.count },
    { name: 'acknowledged', type: types.count },
  ],
});

// ----------------------------------------------------------------------------------------- Casino compliance
const compliance = 'ta-casino-compliance';
const alertQueue = panel({
  id: `${compliance}.alert-queue`,
  title: 'Alert queue',
  description: 'Open and acknowledged alerts, most severe and oldest first.',
  visualization: 'table',
  format: 'table',
  sql: `SELECT f.finding_id AS finding_id, if(a.finding_id = '', 'open', toString(a.state)) AS state,
  f.severity AS severity, f.check_id AS check_id, f.game AS game, f.table_id AS table_id, f.round_id AS round_id,
  a.assignee AS assignee, f.event_time AS opened_at, dateDiff('second', f.event_time, now()) AS age_s
FROM ${ALERTS}
ORDER BY indexOf(['critical', 'high', 'medium', 'low'], severity), opened_at, finding_id
LIMIT 500`,
  columns: [
    { name: 'finding_id', type: types.string },
    { name: 'state', type: types.string },
    { name: 'severity', type: types.string },
    { name: 'check_id', type: types.string },
    { name: 'game', type: types.string },
    { name: 'table_id', type: types.string },
    { name: 'round_id', type: types.string },
    { name: 'assignee', type: types.string },
    { name: 'opened_at', type: types.time },
    { name: 'age_s', type: types.integer },
  ],
});

const timeToAct = panel({
  id: `${compliance}.time-to-acknowledge-resolve`,
  title: 'Time to acknowledge and resolve',
  description:
    'Median and 90th percentile, by severity, of the time from the finding to its (latest) acknowledgement and ' +
    'resolution, over the alerts opened in the time range that someone worked.',
  visualization: 'table',
  format: 'table',
  sql: `SELECT severity,
  count() AS alerts,
  quantileIf(0.5)(dateDiff('second', opened_at, acknowledged_at), acknowledged_at IS NOT NULL) AS ack_p50_s,
  quantileIf(0.9)(dateDiff('second', opened_at, acknowledged_at), acknowledged_at IS NOT NULL) AS ack_p90_s,
  quantileIf(0.5)(dateDiff('second', opened_at, resolved_at), resolved_at IS NOT NULL) AS resolve_p50_s,
  quantileIf(0.9)(dateDiff('second', opened_at, resolved_at), resolved_at IS NOT NULL) AS resolve_p90_s
FROM alert_states FINAL
WHERE $__timeFilter(opened_at)
  AND ${scope()}
GROUP BY severity
ORDER BY indexOf(['critical', 'high', 'medium', 'low'], severity)`,
  columns: [
    { name: 'severity', type: types.string },
    { name: 'alerts', type: types.count },
    { name: 'ack_p50_s', type: types.number },
    { name: 'ack_p90_s', type: types.number },
    { name: 'resolve_p50_s', type: types.number },
    { name: 'resolve_p90_s', type: types.number },
  ],
  unit: 's',
});

/** The same check found again and again for one dealer or one table. */
const repeated = (who: 'dealer' | 'table', title: string): PanelQuery => {
  // dealer_id is Nullable (a round without RoundStarted has no dealer): those findings are not a dealer's
  const [column, select, only] =
    who === 'dealer'
      ? ['dealer', 'assumeNotNull(dealer_id) AS dealer', '\n  AND dealer_id IS NOT NULL']
      : ['table_id', 'table_id', ''];
  return panel({
    id: `${compliance}.repeated-${who}-issues`,
    title,
    description: `The same check found more than once for one ${who} in the time range.`,
    visualization: 'table',
    format: 'table',
    sql: `SELECT ${select}, check_id, count() AS findings, min(event_time) AS first_at, max(event_time) AS last_at
FROM findings FINAL
WHERE $__timeFilter(event_time)${only}
  AND ${scope()}
GROUP BY ${column}, check_id
HAVING findings > 1
ORDER BY findings DESC, ${column}, check_id
LIMIT 50`,
    columns: [
      { name: column, type: types.string },
      { name: 'check_id', type: types.string },
      { name: 'findings', type: types.count },
      { name: 'first_at', type: types.time },
      { name: 'last_at', type: types.time },
    ],
  });
};

const discrepancyPerShift = panel({
  id: `${compliance}.discrepancies-per-shift`,
  title: 'Payout discrepancies per shift',
  description:
    'Over- and under-payment (MOP) by the shift in which the round was played: night 00:00–08:00, day ' +
    '08:00–16:00, swing 16:00–24:00, Macau time.',
  visualization: 'barchart',
  format: 'table',
  sql: `SELECT ${SHIFT('round_start')} AS shift, ${OVERPAID} AS overpaid_mop, ${UNDERPAID} AS underpaid_mop
FROM round_discrepancies FINAL
WHERE $__timeFilter(round_start)
  AND ${DISCREPANT}
  AND ${scope()}
GROUP BY shift
ORDER BY min(${macauHour('round_start')})`,
  columns: [
    { name: 'shift', type: types.string },
    { name: 'overpaid_mop', type: types.money },
    { name: 'underpaid_mop', type: types.money },
  ],
  unit: 'mop',
});

// ---------------------------------------------------------------------------------------------- Table health
const health = 'ta-table-health';
const healthOverTime = panel({
  id: `${health}.events-over-time`,
  title: 'Shuffler failures, replacements, voids and misdeals',
  description: 'Table-health events per time bucket, by kind (a void for a misdeal counted as MISDEAL).',
  visualization: 'timeseries',
  format: 'timeseries',
  sql: `SELECT $__timeInterval(event_time) AS time, if(misdeal, 'MISDEAL', kind) AS kind, count() AS events
FROM table_health FINAL
WHERE $__timeFilter(event_time)
  AND kind NOT IN ('TABLE_OPENED', 'TABLE_CLOSED')
  AND ${scope()}
GROUP BY time, kind
ORDER BY time, kind`,
  columns: [
    { name: 'time', type: types.time },
    { name: 'kind', type: types.string },
    { name: 'events', type: types.count },
  ],
});

const healthByTable = panel({
  id: `${health}.by-table`,
  title: 'Table health by table',
  description:
    'Per table: shuffler malfunctions and replacements, void rounds, misdeals, switches to the shoe.',
  visualization: 'table',
  format: 'table',
  sql: `SELECT table_id, casino,
  countIf(kind = 'SHUFFLER_MALFUNCTION') AS shuffler_malfunctions,
  countIf(kind = 'SHUFFLER_REPLACED') AS shuffler_replacements,
  countIf(kind = 'ROUND_VOIDED') AS void_rounds,
  countIf(misdeal) AS misdeals,
  countIf(kind = 'DEALING_SWITCHED_TO_SHOE') AS switched_to_shoe
FROM table_health FINAL
WHERE $__timeFilter(event_time)
  AND kind NOT IN ('TABLE_OPENED', 'TABLE_CLOSED')
  AND ${scope()}
GROUP BY table_id, casino
ORDER BY count() DESC, table_id
LIMIT 100`,
  columns: [
    { name: 'table_id', type: types.string },
    { name: 'casino', type: types.string },
    { name: 'shuffler_malfunctions', type: types.count },
    { name: 'shuffler_replacements', type: types.count },
    { name: 'void_rounds', type: types.count },
    { name: 'misdeals', type: types.count },
    { name: 'switched_to_shoe', type: types.count },
  ],
});

const rejectsBySource = panel({
  id: `${health}.rejects-by-source`,
  title: 'Rejected input by source and reason',
  description:
    'Input the ingest could not accept, kept with its bytes and reason: by where it came from, and by the ' +
    'casino and concessionaire its event names when it decoded ("unknown" when it did not, or named none). ' +
    "The scope variables do not apply: a reject of unknown casino may be any casino's.",
  visualization: 'table',
  format: 'table',
  sql: `SELECT concessionaire, casino, source_kind, source, code, count() AS rejects, any(reason) AS example_reason,
  max(received_time) AS last_at
FROM ingest_rejects FINAL
WHERE $__timeFilter(received_time)
GROUP BY concessionaire, casino, source_kind, source, code
ORDER BY rejects DESC, concessionaire, casino, source_kind, source, code
LIMIT 100`,
  columns: [
    { name: 'concessionaire', type: types.string },
    { name: 'casino', type: types.string },
    { name: 'source_kind', type: types.string },
    { name: 'source', type: types.string },
    { name: 'code', type: types.string },
    { name: 'rejects', type: types.count },
    { name: 'example_reason', type: types.string },
    { name: 'last_at', type: types.time },
  ],
  variables: [],
});

// -------------------------------------------------------------------------------------------- Conduct (art. 18)
const conduct = 'ta-conduct';
const conductByKind = panel({
  id: `${conduct}.findings-by-kind`,
  title: 'Conduct findings by kind (art. 18.º)',
  description:
    'Findings of the conduct checks (<GAME>.CONDUCT.*, art. 18.º) of every game, in the time range.',
  visualization: 'barchart',
  format: 'table',
  sql: `SELECT check_id, count() AS findings
FROM findings FINAL
WHERE $__timeFilter(event_time)
  AND check_id LIKE '%.CONDUCT.%'
  AND ${scope()}
GROUP BY check_id
ORDER BY findings DESC, check_id`,
  columns: [
    { name: 'check_id', type: types.string },
    { name: 'findings', type: types.count },
  ],
});

const collusionGroups = panel({
  id: `${conduct}.collusion-groups`,
  title: 'Collusion groups',
  description:
    "Groups of players whose decisions their group's cards explain better than their own: the binomial p-value " +
    '(Bonferroni-corrected over the groups tested), rounds together and decisions that followed the group.',
  visualization: 'table',
  format: 'table',
  sql: `SELECT table_id, arrayStringConcat(players, ', ') AS players,
  JSONExtractFloat(details, 'pValue') AS p_value,
  JSONExtractUInt(details, 'bonferroniGroups') AS groups_tested,
  JSONExtractUInt(details, 'roundsTogether') AS rounds_together,
  JSONExtractUInt(details, 'followedGroupCards') AS followed_group,
  JSONExtractUInt(details, 'informativeDecisions') AS informative_decisions,
  event_time
FROM findings FINAL
WHERE $__timeFilter(event_time)
  AND check_id LIKE '%.CONDUCT.COLLUSION'
  AND ${scope()}
ORDER BY p_value, table_id`,
  columns: [
    { name: 'table_id', type: types.string },
    { name: 'players', type: types.string },
    { name: 'p_value', type: types.number },
    { name: 'groups_tested', type: types.integer },
    { name: 'rounds_together', type: types.integer },
    { name: 'followed_group', type: types.integer },
    { name: 'informative_decisions', type: types.integer },
    { name: 'event_time', type: types.time },
  ],
});

const bettingSystems = panel({
  id: `${conduct}.betting-system-players`,
  title: 'Betting-system players',
  description:
    'Players whose stakes follow a betting system (<GAME>.CONDUCT.BETTING_SYSTEM), with the finding.',
  visualization: 'table',
  format: 'table',
  sql: `SELECT arrayJoin(players) AS player, table_id, casino, count() AS findings, any(summary) AS summary,
  max(event_time) AS last_at
FROM findings FINAL
WHERE $__timeFilter(event_time)
  AND check_id LIKE '%.CONDUCT.BETTING_SYSTEM'
  AND ${scope()}
GROUP BY player, table_id, casino
ORDER BY findings DESC, player`,
  columns: [
    { name: 'player', type: types.string },
    { name: 'table_id', type: types.string },
    { name: 'casino', type: types.string },
    { name: 'findings', type: types.count },
    { name: 'summary', type: types.string },
    { name: 'last_at', type: types.time },
  ],
});

// -------------------------------------------------------------------------------------------- Round drill-down
const drill = 'ta-round';
const ROUND = 'round_id = ${round:singlequote}';
// rounds, bets and findings are sorted by casino, date and table first: round_index (migration 5) says where the
// round's rows lie, so they are read by their sorting key rather than found by id across a month
const AT_ROUND = (source: 'rounds' | 'findings', key: string): string =>
  `(${key}) IN (SELECT ${key} FROM round_index WHERE ${ROUND} AND source = '${source}')`;
const ROUND_KEY = 'casino, macau_date, table_id, round_id';
const roundSummary = panel({
  id: `${drill}.round`,
  title: 'Round',
  description:
    'The round as derived under its rule set: what was staked, what should have been paid, what was.',
  visualization: 'table',
  format: 'table',
  sql: `SELECT round_id, table_id, casino, game, rule_set, dealer_id, round_start, status, status_reason,
  total_staked_avos / 100 AS staked_mop, expected_paid_avos / 100 AS expected_paid_mop,
  declared_paid_avos / 100 AS declared_paid_mop, paid_difference_avos / 100 AS difference_mop,
  house_result_avos / 100 AS house_result_mop
FROM rounds FINAL
WHERE ${AT_ROUND('rounds', ROUND_KEY)}`,
  columns: [
    { name: 'round_id', type: types.string },
    { name: 'table_id', type: types.string },
    { name: 'casino', type: types.string },
    { name: 'game', type: types.string },
    { name: 'rule_set', type: types.string },
    { name: 'dealer_id', type: types.string },
    { name: 'round_start', type: types.time },
    { name: 'status', type: types.string },
    { name: 'status_reason', type: types.string },
    { name: 'staked_mop', type: types.money },
    { name: 'expected_paid_mop', type: types.money },
    { name: 'declared_paid_mop', type: types.money },
    { name: 'difference_mop', type: types.money },
    { name: 'house_result_mop', type: types.money },
  ],
  unit: 'mop',
  variables: ['round'],
});

const roundBets = panel({
  id: `${drill}.bets`,
  title: 'Bets: expected against declared',
  description:
    'Each bet of the round: the stake, the payout the rules give, the payout declared, the difference.',
  visualization: 'table',
  format: 'table',
  sql: `SELECT seat, bet_type, expected_outcome, stake_avos / 100 AS stake_mop,
  expected_payout_avos / 100 AS expected_mop, declared_payout_avos / 100 AS declared_mop,
  difference_avos / 100 AS difference_mop
FROM bets FINAL
WHERE ${AT_ROUND('rounds', ROUND_KEY)}
  AND ${currentBets(AT_ROUND('rounds', ROUND_KEY))}
ORDER BY line_index`,
  columns: [
    { name: 'seat', type: types.integer },
    { name: 'bet_type', type: types.string },
    { name: 'expected_outcome', type: types.string },
    { name: 'stake_mop', type: types.money },
    { name: 'expected_mop', type: types.money },
    { name: 'declared_mop', type: types.money },
    { name: 'difference_mop', type: types.money },
  ],
  unit: 'mop',
  variables: ['round'],
});

const roundFindings = panel({
  id: `${drill}.findings`,
  title: 'Findings',
  description:
    'What the checks found in the round, with the provisions cited and the interpretations relied on.',
  visualization: 'table',
  format: 'table',
  sql: `SELECT check_id, severity, summary, arrayStringConcat(citation_references, '; ') AS citations,
  arrayStringConcat(interpretation_ids, ', ') AS interpretations, event_time
FROM findings FINAL
WHERE ${AT_ROUND('findings', 'casino, macau_date, table_id')}
  AND ${ROUND}
ORDER BY indexOf(['critical', 'high', 'medium', 'low'], severity), check_id`,
  columns: [
    { name: 'check_id', type: types.string },
    { name: 'severity', type: types.string },
    { name: 'summary', type: types.string },
    { name: 'citations', type: types.string },
    { name: 'interpretations', type: types.string },
    { name: 'event_time', type: types.time },
  ],
  variables: ['round'],
});

const ROUND_PAGE = '${api_base_url}/ui/rounds/${round}';
const toRound = (field: string) => ({
  field,
  title: 'Open this round',
  url: `/d/${drill}?var-round=\${__value.raw}`,
});

export const dashboards: readonly DashboardSpec[] = [
  {
    uid: overview,
    title: 'DICJ overview',
    description:
      'Findings across concessionaires, casinos, games and tables; payout discrepancies; open alerts.',
    variables: SCOPE,
    panels: [
      findingsOverTime,
      findingsByCheck,
      findingsByGame,
      discrepanciesOverTime,
      topTables,
      topDealers,
      openAlertsByAge,
    ],
  },
  {
    uid: compliance,
    title: 'Casino compliance',
    description:
      "A concessionaire's own alert queue, response times, repeated issues and discrepancies per shift.",
    variables: SCOPE,
    panels: [
      alertQueue,
      timeToAct,
      repeated('dealer', 'Repeated dealer issues'),
      repeated('table', 'Repeated table issues'),
      discrepancyPerShift,
    ],
    dataLinks: { [alertQueue.id]: toRound('round_id') },
  },
  {
    uid: health,
    title: 'Table health',
    description: 'Shuffler failures and replacements, void rounds, misdeals and rejected input.',
    variables: SCOPE,
    panels: [healthOverTime, healthByTable, rejectsBySource],
  },
  {
    uid: conduct,
    title: 'Conduct (art. 18.º)',
    description: 'Conduct findings: by kind, collusion groups with their p-values, betting-system players.',
    variables: SCOPE,
    panels: [conductByKind, collusionGroups, bettingSystems],
  },
  {
    uid: drill,
    title: 'Round drill-down',
    description: 'One round: its bets, expected against declared, and its findings.',
    variables: ['round', 'api_base_url'],
    header: `Round \`\${round}\`: [open the disputed-hand page](${ROUND_PAGE}) (step-by-step replay in table-audit).`,
    links: [{ title: 'Disputed-hand page', url: ROUND_PAGE }],
    panels: [roundSummary, roundBets, roundFindings],
  },
];

/** Every panel by id. */
export const panels: ReadonlyMap<string, PanelQuery> = new Map(
  dashboards.flatMap((d) => d.panels.map((p) => [p.id, p] as const)),
);

/** The panels the morning report draws, in its order. */
export const REPORT_PANELS: readonly string[] = [
  findingsOverTime.id,
  findingsByCheck.id,
  discrepanciesOverTime.id,
  discrepancyPerShift.id,
  topTables.id,
  topDealers.id,
  openAlertsByAge.id,
  healthByTable.id,
  conductByKind.id,
  collusionGroups.id,
];
