// The analytics tables filled as the pipeline fills them: a simulated session (faults of every kind, a betting-
// system table, a table of colluders) → ingest (plus input it must reject: an impossible bet from a file and a
// negative payout from Kafka) → replay → the analytics projector into chDB. Alert states, which only the API
// writes, are written for a few findings as the API will: one open, one acknowledged, one resolved.
import { join } from 'node:path';
import { AnalyticsProjector, migrate, openAnalytics, type AnalyticsClient } from '@table-audit/analytics';
import { runProcessor } from '@table-audit/eventstore';
import { SqliteEventStore } from '@table-audit/eventstore/sqlite';
import { IngestPipeline, type IngestInput } from '@table-audit/ingest';
import { ReplayService } from '@table-audit/replay';
import { ROUND_FAULTS, simulateSession } from '@table-audit/simulator';

export interface SimulatedAnalytics {
  readonly analytics: AnalyticsClient;
  readonly analyticsDir: string;
  /** The session's time span, UTC ms, as a dashboard time range. */
  readonly range: { readonly from: number; readonly to: number };
  /** The Macau date most of the session was played on. */
  readonly date: string;
  /** A round with a payout discrepancy (for the drill-down). */
  readonly disputedRound: string;
  /** The check with the most findings on `date`. */
  readonly topCheckId: string;
  close(): Promise<void>;
}

const HOUR = 3_600_000;

export async function simulatedAnalytics(dir: string): Promise<SimulatedAnalytics> {
  const session = simulateSession({
    seed: 17,
    tables: 12,
    roundsPerTable: 30,
    faultRate: 0.2,
    // a payout dispute first, so the drill-down has one however the faults fall
    faults: ['payout-wrong', ...ROUND_FAULTS.filter((f) => f !== 'payout-wrong')],
    handledRate: 0.05,
    bettingSystemTables: 1,
    collusionTables: 1,
    collusionRounds: 400,
  });
  const store = new SqliteEventStore(join(dir, 'events.sqlite'));
  const pipeline = new IngestPipeline(store, () => session.events.at(-1)!.data.header.eventTime + HOUR);
  for (let i = 0; i < session.events.length; i += 2_000)
    await pipeline.submit(
      session.events.slice(i, i + 2_000).map((event, k) => ({
        source: { kind: 'in-process' as const, producer: 'simulator', index: i + k },
        event,
      })),
    );
  const bet = session.events.find((e) => e.type === 'BetPlaced')!;
  const payout = session.events.find((e) => e.type === 'PayoutMade')!;
  const impossible: IngestInput[] = [
    {
      source: { kind: 'file', path: 'data/tables-2025-12-01.avro', block: 4, index: 17 },
      event: { ...bet, data: { ...bet.data, amount: 0 } } as typeof bet,
    },
    {
      source: { kind: 'kafka', topic: 'ta.table-events', partition: 1, offset: '88' },
      event: { ...payout, data: { ...payout.data, amount: -500 } } as typeof payout,
    },
  ];
  const rejected = await pipeline.submit(impossible);
  if (rejected.rejected !== 2)
    throw new Error(`expected ingest to reject 2 impossible events, got ${rejected.rejected}`);
  const replay = new ReplayService({ store });
  await replay.catchUp();
  await replay.finish();

  const analyticsDir = join(dir, 'analytics');
  const analytics = await openAnalytics({ path: analyticsDir });
  await migrate(analytics.client);
  await runProcessor(store, new AnalyticsProjector(analytics.client));
  await store.close();

  const times = session.events.map((e) => e.data.header.eventTime);
  const range = { from: Math.min(...times) - HOUR, to: Math.max(...times) + HOUR };
  const one = async <T>(query: string, query_params: Record<string, unknown> = {}): Promise<T> => {
    const rows = await (
      await analytics.client.query({ query, query_params, format: 'JSONEachRow' })
    ).json<T>();
    if (!rows[0]) throw new Error(`the simulated session has nothing for: ${query}`);
    return rows[0];
  };
  const { date } = await one<{ date: string }>(
    'SELECT toString(macau_date) AS date FROM findings FINAL GROUP BY macau_date ORDER BY count() DESC LIMIT 1',
  );
  const { round_id: disputedRound } = await one<{ round_id: string }>(
    'SELECT round_id FROM bets FINAL WHERE difference_avos != 0 ORDER BY round_id LIMIT 1',
  );
  const { check_id: topCheckId } = await one<{ check_id: string }>(
    'SELECT check_id FROM findings FINAL WHERE macau_date = {date:Date} GROUP BY check_id ORDER BY count() DESC, check_id LIMIT 1',
    { date },
  );
  await writeAlertStates(analytics, range.to);
  return {
    analytics,
    analyticsDir,
    range,
    date,
    disputedRound,
    topCheckId,
    close: () => analytics.close(),
  };
}

/** Three findings worked as the API will work them: one left open, one acknowledged, one resolved. */
async function writeAlertStates(analytics: AnalyticsClient, now: number): Promise<void> {
  const findings = await (
    await analytics.client.query({
      query: `SELECT finding_id, check_id, severity, casino, table_id, event_time, macau_date
        FROM findings FINAL WHERE NOT handled ORDER BY event_time, finding_id LIMIT 3`,
      format: 'JSONEachRow',
    })
  ).json<{
    finding_id: string;
    check_id: string;
    severity: string;
    casino: string;
    table_id: string;
    event_time: string;
    macau_date: string;
  }>();
  if (findings.length < 3) throw new Error('the simulated session has fewer than 3 findings to alert on');
  const states = ['open', 'acknowledged', 'resolved'] as const;
  const at = (ms: number): string => new Date(ms).toISOString().replace('T', ' ').replace('Z', '');
  const rows = findings.map((f, i) => {
    const opened = Date.parse(`${f.event_time.replace(' ', 'T')}Z`);
    return {
      finding_id: f.finding_id,
      state: states[i]!,
      assignee: i === 0 ? null : 'compliance.officer',
      note: '',
      changed_by: 'compliance.officer',
      changed_at: at(now),
      opened_at: at(opened),
      acknowledged_at: i >= 1 ? at(opened + 20 * 60_000) : null,
      resolved_at: i === 2 ? at(opened + 3 * HOUR) : null,
      check_id: f.check_id,
      severity: f.severity,
      casino: f.casino,
      table_id: f.table_id,
      macau_date: f.macau_date,
      version: 1,
    };
  });
  await analytics.client.insert({ table: 'alert_states', values: rows, format: 'JSONEachRow' });
}
