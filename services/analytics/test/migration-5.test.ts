// Migration 5: round_discrepancies (the rounds paid over or under, fed by a view on rounds), round_index (where a
// round's rows lie, by round id) and the table, casino and concessionaire of ingest rejects. What the discrepancy
// panels read must agree with the rounds under FINAL: after a round is derived again (paid right this time, or
// differently), after a batch is handed over again, and after the migration fills tables projected before it.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runProcessor, type RecordedEvent } from '@table-audit/eventstore';
import type { SqliteEventStore } from '@table-audit/eventstore/sqlite';
import { REJECT_EVENT_TYPE, REJECTS_STREAM, type RejectData } from '@table-audit/ingest';
import type { RoundDerived } from '@table-audit/schemas';
import { roundStream } from '@table-audit/schemas/streams';
import {
  AnalyticsProjector,
  migrate,
  openAnalytics,
  rejectScope,
  UNKNOWN_SCOPE,
  type AnalyticsClient,
} from '../src/index.ts';
import { simulatedStore } from './fixture.ts';

delete process.env.CLICKHOUSE_URL;
const dir = mkdtempSync(join(tmpdir(), 'ta-analytics-m5-'));
let store: SqliteEventStore;
let analytics: AnalyticsClient;
let projector: AnalyticsProjector;
const project = () => runProcessor(store, projector, { batchSize: 5_000 });

before(async () => {
  ({ store } = await simulatedStore(dir));
  analytics = await openAnalytics({ path: join(dir, 'analytics') });
  await migrate(analytics.client);
  projector = new AnalyticsProjector(analytics.client);
  await project();
});
after(async () => {
  await analytics?.close();
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

const rows = async <T>(query: string): Promise<T[]> =>
  (
    await analytics.client.query({
      query,
      format: 'JSONEachRow',
      clickhouse_settings: { output_format_json_quote_64bit_integers: 0 },
    })
  ).json<T>();

type Paid = { round_id: string; over: number; under: number };
const DISCREPANT = 'overpaid_avos != 0 OR underpaid_avos != 0';
/** The discrepant rounds as the panels read them, and as the rounds under FINAL have them. */
const discrepancies = async () => ({
  panels: await rows<Paid>(`SELECT round_id, overpaid_avos AS over, underpaid_avos AS under
    FROM round_discrepancies FINAL WHERE ${DISCREPANT} ORDER BY round_id`),
  rounds: await rows<Paid>(`SELECT round_id, overpaid_avos AS over, underpaid_avos AS under
    FROM rounds FINAL WHERE ${DISCREPANT} ORDER BY round_id`),
});

/** The latest derivation of each round, from the store. */
async function derivations(): Promise<Map<string, { e: RecordedEvent; r: RoundDerived }>> {
  const latest = new Map<string, { e: RecordedEvent; r: RoundDerived }>();
  for await (const e of store.readAll())
    if (e.type === 'RoundDerived')
      latest.set((e.data as RoundDerived).roundId, { e, r: e.data as RoundDerived });
  return latest;
}

/** A derivation of the round again, each bet line's difference times `factor` (0: paid as the rules give). */
const rederived = (r: RoundDerived, factor: number): RoundDerived => {
  const lines = r.lines.map((l) =>
    l.differenceAvos === null || l.declaredPayoutAvos === null || l.declaredNetAvos === null
      ? l
      : {
          ...l,
          declaredPayoutAvos: l.expectedPayoutAvos + l.differenceAvos * factor,
          declaredNetAvos: l.expectedNetAvos + l.differenceAvos * factor,
          differenceAvos: l.differenceAvos * factor,
        },
  );
  const declared = r.expectedPaidAvos + (r.declaredPaidAvos - r.expectedPaidAvos) * factor;
  return { ...r, lines, declaredPaidAvos: declared };
};

let appended = 0;
const appendDerivations = (records: readonly RoundDerived[]) =>
  store.append(
    roundStream(records[0]!.tableId),
    records.map((data) => ({ eventId: `m5-rederived-${appended++}`, type: 'RoundDerived', data })),
  );

describe('migration 5: discrepant rounds and the round index', () => {
  it('round_discrepancies holds exactly the rounds paid over or under', async () => {
    const { panels, rounds } = await discrepancies();
    assert.ok(rounds.length > 0, 'the session has rounds paid wrongly');
    assert.deepEqual(panels, rounds);
    const [{ n }] = (await rows<{ n: number }>('SELECT count() AS n FROM round_discrepancies FINAL')) as [
      { n: number },
    ];
    assert.equal(n, rounds.length, 'no round paid right was copied');
  });

  it('a round derived again follows its latest derivation, also two derivations in one batch', async () => {
    const latest = await derivations();
    const wrong = [...latest.values()].filter(({ r }) => r.lines.some((l) => (l.differenceAvos ?? 0) !== 0));
    const right = [...latest.values()].filter(({ r }) =>
      r.lines.some((l) => l.differenceAvos === 0 && l.declaredPayoutAvos !== null),
    );
    assert.ok(wrong.length >= 1 && right.length >= 2);
    /** The round with its first bet paid as the rules give paid 50 MOP over. */
    const paidOver = (r: RoundDerived): RoundDerived => {
      const line = r.lines.findIndex((l) => l.differenceAvos === 0 && l.declaredPayoutAvos !== null);
      return {
        ...r,
        lines: r.lines.map((l, i) =>
          i === line
            ? {
                ...l,
                declaredPayoutAvos: l.declaredPayoutAvos! + 5_000,
                declaredNetAvos: (l.declaredNetAvos ?? 0) + 5_000,
                differenceAvos: 5_000,
              }
            : l,
        ),
      };
    };
    const first = wrong[0]!.r;
    // paid right this time
    await appendDerivations([rederived(first, 0)]);
    // a round paid right before, paid 50 MOP over now
    const r = right[0]!.r;
    await appendDerivations([paidOver(r)]);
    // a round paid right, derived twice in what becomes one batch: paid over, then right again; the latest counts
    const second = right.find((x) => x.r.tableId !== r.tableId)?.r;
    assert.ok(second, 'rounds paid right at two tables');
    await appendDerivations([paidOver(second), { ...second }]);
    await project();
    const { panels, rounds } = await discrepancies();
    assert.deepEqual(panels, rounds);
    const ids = new Set(panels.map((p) => p.round_id));
    assert.ok(!ids.has(first.roundId), 'the round paid right is no longer discrepant');
    assert.ok(!ids.has(second.roundId), 'the latest of two derivations in one batch counts');
    assert.ok(ids.has(r.roundId), 'the round paid over now is');
    assert.ok(panels.find((p) => p.round_id === r.roundId)!.over >= 5_000);
  });

  it('a batch handed over again changes nothing the panels read', async () => {
    const before = await discrepancies();
    const all: RecordedEvent[] = [];
    for await (const e of store.readAll()) all.push(e);
    const again = new AnalyticsProjector(analytics.client, { name: 'analytics-m5-again' });
    for (let i = 0; i < all.length; i += 3_000) await again.handle(all.slice(i, i + 3_000));
    assert.deepEqual(await discrepancies(), before);
  });

  it('round_index finds each round’s rows by their sorting keys', async () => {
    const [{ missing }] = (await rows<{ missing: number }>(`SELECT count() AS missing FROM rounds FINAL
      WHERE (casino, macau_date, table_id, round_id) NOT IN
        (SELECT casino, macau_date, table_id, round_id FROM round_index WHERE source = 'rounds')`)) as [
      { missing: number },
    ];
    assert.equal(missing, 0);
    const [{ lost }] = (await rows<{ lost: number }>(`SELECT count() AS lost FROM findings FINAL
      WHERE round_id IS NOT NULL AND (casino, macau_date, table_id, assumeNotNull(round_id)) NOT IN
        (SELECT casino, macau_date, table_id, round_id FROM round_index WHERE source = 'findings')`)) as [
      { lost: number },
    ];
    assert.equal(lost, 0);
  });

  it('an ingest reject carries the table, casino and concessionaire its decoded event names, else unknown', async () => {
    const [header] = (
      await rows<{ table_id: string; casino: string; concessionaire: string }>(
        'SELECT table_id, casino, concessionaire FROM tables FINAL ORDER BY table_id LIMIT 1',
      )
    ).map((t) => ({ tableId: t.table_id, casino: t.casino, concessionaire: t.concessionaire }));
    const decoded = {
      type: 'RoundStarted',
      data: { header: { ...header!, eventId: 'bad-1', roundId: 'R-1', eventTime: 0 }, roundNumber: -1 },
    };
    const reject = (id: string, extra: Partial<RejectData>): RejectData => ({
      source: { kind: 'kafka', topic: 'ta.table-events', partition: 0, offset: id },
      sourceText: `kafka ta.table-events[0]@${id}`,
      code: 'IMPOSSIBLE_EVENT',
      reason: 'the round number is negative',
      rawBase64: null,
      decoded: null,
      ...extra,
    });
    await store.append(REJECTS_STREAM, [
      {
        eventId: 'm5-reject-decoded',
        type: REJECT_EVENT_TYPE,
        data: reject('1', { decoded: decoded as never }),
      },
      {
        eventId: 'm5-reject-text',
        type: REJECT_EVENT_TYPE,
        data: reject('2', { decodedText: JSON.stringify(decoded) }),
      },
    ]);
    await project();
    const got = await rows<{ reject_id: string; table_id: string; casino: string; concessionaire: string }>(
      'SELECT reject_id, table_id, casino, concessionaire FROM ingest_rejects FINAL ORDER BY reject_id',
    );
    const scope = [header!.tableId, header!.casino, header!.concessionaire];
    const of = (id: string) => {
      const r = got.find((x) => x.reject_id === id)!;
      return [r.table_id, r.casino, r.concessionaire];
    };
    assert.deepEqual(of('m5-reject-decoded'), scope);
    assert.deepEqual(of('m5-reject-text'), scope);
    const undecoded = got.filter((r) => !r.reject_id.startsWith('m5-'));
    assert.ok(undecoded.length >= 2, 'the fixture’s truncated message and corrupt block');
    for (const r of undecoded)
      assert.deepEqual([r.table_id, r.casino, r.concessionaire], Array(3).fill('unknown'));
    assert.deepEqual(rejectScope(reject('3', { decodedText: '{"data":' })), {
      table_id: UNKNOWN_SCOPE,
      casino: UNKNOWN_SCOPE,
      concessionaire: UNKNOWN_SCOPE,
    });
  });

  it('a reject received at an early time (0: the epoch) is projected with that time, not refused', async () => {
    await store.append(REJECTS_STREAM, [
      {
        eventId: 'm5-reject-epoch',
        type: REJECT_EVENT_TYPE,
        data: {
          source: { kind: 'kafka', topic: 'ta.table-events', partition: 0, offset: '9' },
          sourceText: 'kafka ta.table-events[0]@9',
          code: 'UNDECODABLE',
          reason: 'a truncated message',
          rawBase64: null,
          decoded: null,
        } satisfies RejectData,
        metadata: { receivedAt: 0 },
      },
    ]);
    await project();
    const got = await rows<{ ms: number }>(
      "SELECT toUnixTimestamp64Milli(received_time) AS ms FROM ingest_rejects FINAL WHERE reject_id = 'm5-reject-epoch'",
    );
    assert.deepEqual(got, [{ ms: 0 }]);
  });

  it('on a store projected before it, the migration fills the new tables and the rejects’ casinos', async () => {
    const before = {
      discrepancies: await discrepancies(),
      index: await rows('SELECT DISTINCT * FROM round_index ORDER BY ALL'),
      rejects: await rows('SELECT reject_id, table_id, casino FROM ingest_rejects FINAL ORDER BY reject_id'),
    };
    // as a build before migration 5 left them: no tables or views of it, rejects without their scope
    const c = analytics.client;
    for (const v of ['round_discrepancies_mv', 'round_index_rounds_mv', 'round_index_findings_mv'])
      await c.command({ query: `DROP VIEW ${v}` });
    for (const t of ['round_discrepancies', 'round_index']) await c.command({ query: `DROP TABLE ${t}` });
    for (const col of ['table_id', 'casino', 'concessionaire'])
      await c.command({ query: `ALTER TABLE ingest_rejects DROP COLUMN ${col} SETTINGS mutations_sync = 2` });
    await c.command({
      query: 'ALTER TABLE schema_migrations DELETE WHERE version = 5 SETTINGS mutations_sync = 2',
    });
    assert.deepEqual((await migrate(c)).applied, [5]);
    assert.deepEqual(await discrepancies(), before.discrepancies);
    assert.deepEqual(await rows('SELECT DISTINCT * FROM round_index ORDER BY ALL'), before.index);
    assert.deepEqual(
      await rows('SELECT reject_id, table_id, casino FROM ingest_rejects FINAL ORDER BY reject_id'),
      before.rejects,
    );
  });
});
