// The analytics tables filled as the pipeline fills them: a simulated session (faults of every kind, a betting-
// system table, a table of colluders) → ingest (plus input it must reject: an impossible bet from a file and a
// negative payout from Kafka) → replay → alerts worked as the API works them (Alert* events appended to their
// alert-<finding id> streams: acknowledged, assigned, resolved, reopened) → the analytics projector into chDB.
import { join } from 'node:path';
import { AnalyticsProjector, migrate, openAnalytics, type AnalyticsClient } from '@table-audit/analytics';
import { runProcessor } from '@table-audit/eventstore';
import { SqliteEventStore } from '@table-audit/eventstore/sqlite';
import { IngestPipeline, type IngestInput } from '@table-audit/ingest';
import { ReplayService } from '@table-audit/replay';
import type {
  AlertAcknowledged,
  AlertAssigned,
  AlertReopened,
  AlertResolved,
} from '@table-audit/schemas/events';
import type { Finding } from '@table-audit/rules';
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
  /** The findings whose alerts were worked, by what was done to them. */
  readonly worked: Readonly<Record<'acknowledged' | 'resolved' | 'reopened', Finding>>;
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
  const worked = await workAlerts(store);

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
  return {
    analytics,
    analyticsDir,
    range,
    date,
    disputedRound,
    topCheckId,
    worked,
    close: () => analytics.close(),
  };
}

type AlertAppend =
  | { type: 'AlertAcknowledged'; data: AlertAcknowledged }
  | { type: 'AlertAssigned'; data: AlertAssigned }
  | { type: 'AlertResolved'; data: AlertResolved }
  | { type: 'AlertReopened'; data: AlertReopened };

/**
 * Three alerts worked as a compliance officer works them through the API (its decide gives exactly these events
 * from an open alert): one acknowledged 20 minutes after its finding; one acknowledged, assigned and resolved
 * (confirmed) 3 hours after; one resolved as a false positive and reopened by the inspector. Every other finding
 * not handled at the table stays open.
 */
async function workAlerts(store: SqliteEventStore): Promise<SimulatedAnalytics['worked']> {
  const open: Finding[] = [];
  for await (const e of store.readAll())
    if (e.type === 'FindingRaised' && !(e.data as Finding).handled) open.push(e.data as Finding);
  if (open.length < 3) throw new Error('the simulated session has fewer than 3 findings to alert on');
  const [acknowledged, resolved, reopened] = [open[0]!, open[Math.floor(open.length / 2)]!, open.at(-1)!];
  const actor = (f: Finding, minutes: number, subject = 'compliance.officer') => ({
    alertId: f.findingId,
    actorSubject: subject,
    actorRole: 'compliance_officer' as const,
    actorConcessionaire: f.concessionaire,
    time: f.eventTime + minutes * 60_000,
    requestId: `sim-${f.findingId}-${minutes}`,
  });
  const work: [Finding, AlertAppend[]][] = [
    [acknowledged, [{ type: 'AlertAcknowledged', data: { ...actor(acknowledged, 20), note: null } }]],
    [
      resolved,
      [
        { type: 'AlertAcknowledged', data: { ...actor(resolved, 10), note: 'looking at the camera' } },
        { type: 'AlertAssigned', data: { ...actor(resolved, 12), assignee: 'pit.manager' } },
        {
          type: 'AlertResolved',
          data: { ...actor(resolved, 180), disposition: 'confirmed', comment: 'paid short; corrected' },
        },
      ],
    ],
    [
      reopened,
      [
        {
          type: 'AlertResolved',
          data: { ...actor(reopened, 30), disposition: 'false_positive', comment: 'bet withdrawn in time' },
        },
        {
          type: 'AlertReopened',
          data: { ...actor(reopened, 600, 'dicj.inspector'), actorRole: 'inspector', reason: 'see camera 4' },
        },
      ],
    ],
  ];
  for (const [f, events] of work)
    await store.append(
      `alert-${f.findingId}`,
      events.map((e, i) => ({ eventId: `alert:sim:${f.findingId}:${i}`, ...e })),
      { expectedRevision: 'no-stream' },
    );
  return { acknowledged, resolved, reopened };
}
