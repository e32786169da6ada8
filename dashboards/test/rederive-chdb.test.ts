// A round derived again with FEWER bet lines than before (the replay appends a new RoundDerived when the rules code
// changed): bets are keyed by line position, so FINAL replaces the lines the new derivation still has, and the older
// lines past its last one stay in the table. The drill-down's bets panel and the bet aggregates must show the latest
// derivation's lines only (currentBets: a line's position is its round's latest), in a later batch and within one.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  AnalyticsProjector,
  DASHBOARD_QUERIES,
  migrate,
  openAnalytics,
  type AnalyticsClient,
} from '@table-audit/analytics';
import { recorder } from '@table-audit/analytics/testing';
import type { RecordedEvent } from '@table-audit/eventstore';
import { replayEvents, ROUND_EVENT_TYPE } from '@table-audit/replay';
import type { RoundDerived } from '@table-audit/schemas';
import { roundStream } from '@table-audit/schemas/streams';
import { simulateSession } from '@table-audit/simulator';
import { panels } from '../src/dashboards.ts';
import { clickhouseRunner, runPanel } from '../src/run.ts';

delete process.env.CLICKHOUSE_URL;
const dir = mkdtempSync(join(tmpdir(), 'ta-dashboards-rederive-'));
let analytics: AnalyticsClient;
let rounds: RoundDerived[];
const record = recorder();
let derivations = 0;
const recorded = (data: RoundDerived): RecordedEvent =>
  record(roundStream(data.tableId), ROUND_EVENT_TYPE, `rec-${data.roundId}-${++derivations}`, data);

before(async () => {
  const session = simulateSession({ seed: 5, tables: 2, roundsPerTable: 30, faultRate: 0.3, handledRate: 0 });
  rounds = replayEvents(session.events).rounds.flatMap((r) => (r.record ? [r.record] : []));
  analytics = await openAnalytics({ path: join(dir, 'analytics') });
  await migrate(analytics.client);
});
after(async () => {
  await analytics?.close();
  rmSync(dir, { recursive: true, force: true });
});

const betsPanel = panels.get('ta-round.bets')!;
const drillDownBets = async (roundId: string) =>
  (
    await runPanel(clickhouseRunner(analytics.client), betsPanel, {
      from: 0,
      to: Date.UTC(2100, 0, 1),
      intervalMs: 3_600_000,
      variables: { round: { values: [roundId] } },
    })
  ).rows;
const count = async (query: string): Promise<number> =>
  Number(
    (await (await analytics.client.query({ query, format: 'JSONEachRow' })).json<{ n: string }>())[0]!.n,
  );
/** The bet aggregate of the analytics queries, summed over its days: the net difference of every current line. */
const netDifference = async (): Promise<number> =>
  (
    await (
      await analytics.client.query({
        query: DASHBOARD_QUERIES['discrepancy sums by casino and day']!,
        query_params: { from: '2000-01-01', to: '2100-01-01' },
        format: 'JSONEachRow',
        clickhouse_settings: { output_format_json_quote_64bit_integers: 0 },
      })
    ).json<{ net_difference_avos: number }>()
  ).reduce((a, r) => a + r.net_difference_avos, 0);
const expectedNet = (latest: readonly RoundDerived[]): number =>
  latest.reduce((a, r) => a + r.lines.reduce((b, l) => b + (l.differenceAvos ?? 0), 0), 0);

describe('a round derived again with fewer bet lines', () => {
  it('shows the latest derivation’s lines only, re-derived in a later batch and twice within one', async () => {
    const projector = new AnalyticsProjector(analytics.client);
    const wide = rounds.filter((r) => r.lines.length >= 3);
    assert.ok(wide.length >= 3, 'the session has rounds with three bet lines or more');
    const [later, within, paidWrong] = [wide[0]!, wide[1]!, wide[2]!];
    await projector.handle(rounds.map(recorded));
    const before = await drillDownBets(later.roundId);
    assert.equal(before.length, later.lines.length);

    // a later batch: `later` now has its first line only, paid 50 MOP over; `paidWrong` its last line paid 20 MOP under
    const shorter: RoundDerived = {
      ...later,
      lines: [{ ...later.lines[0]!, differenceAvos: 5_000 }],
    };
    const last = paidWrong.lines.at(-1)!;
    const underpaid: RoundDerived = { ...paidWrong, lines: [{ ...last, differenceAvos: -2_000 }] };
    // within one batch: `within` derived twice, first with two lines, then with one
    const once: RoundDerived = { ...within, lines: within.lines.slice(0, 2) };
    const twice: RoundDerived = { ...within, lines: within.lines.slice(1, 2) };
    const second = [shorter, underpaid, once, twice].map(recorded);
    await projector.handle(second);

    // the old lines are still in the table under FINAL: what the condition is there for
    assert.equal(
      await count(`SELECT count() AS n FROM bets FINAL WHERE round_id = '${later.roundId}'`),
      later.lines.length,
    );
    const rows = await drillDownBets(later.roundId);
    assert.equal(rows.length, 1, 'the drill-down shows the one line the latest derivation has');
    assert.equal(rows[0]![6], 50, 'its difference, 50 MOP over');
    assert.equal((await drillDownBets(paidWrong.roundId)).length, 1);
    const inBatch = await drillDownBets(within.roundId);
    assert.equal(inBatch.length, 1, 'of two derivations in one batch, the latest');
    assert.equal(inBatch[0]![1], twice.lines[0]!.betType);

    const latest = rounds.map((r) =>
      r.roundId === later.roundId
        ? shorter
        : r.roundId === paidWrong.roundId
          ? underpaid
          : r.roundId === within.roundId
            ? twice
            : r,
    );
    assert.equal(await netDifference(), expectedNet(latest));
    // and the rounds' own sums agree with their latest lines
    assert.equal(
      await count(
        `SELECT sum(overpaid_avos) - sum(underpaid_avos) AS n FROM rounds FINAL WHERE round_id IN ('${later.roundId}', '${paidWrong.roundId}')`,
      ),
      5_000 - 2_000,
    );

    // handed over again: nothing changes
    await new AnalyticsProjector(analytics.client).handle(second);
    assert.equal((await drillDownBets(later.roundId)).length, 1);
    assert.equal(await netDifference(), expectedNet(latest));
  });
});
