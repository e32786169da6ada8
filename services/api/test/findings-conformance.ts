/**
 * The FindingsQuery conformance suite: what every adapter (the store index, ClickHouse) must answer for a store,
 * checked against findings read straight from the store's events (the finding, its round's dealer from
 * RoundStarted, its table's game from TableOpened).
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { EventStore } from '@table-audit/eventstore';
import type { Finding } from '@table-audit/rules';
import {
  compareFindings,
  COUNT_DIMENSIONS,
  type FindingFilter,
  type FindingsQuery,
  type FindingView,
} from '../src/findings-query.ts';

export async function storedFindings(store: EventStore): Promise<FindingView[]> {
  const dealers = new Map<string, string>();
  const games = new Map<string, string>();
  const findings: Finding[] = [];
  for await (const e of store.readAll()) {
    const d = e.data as {
      header?: { tableId: string; roundId: string | null };
      game?: string;
      dealerId?: string;
    };
    if (e.type === 'TableOpened') games.set(d.header!.tableId, d.game!);
    else if (e.type === 'RoundStarted') dealers.set(d.header!.roundId!, d.dealerId!);
    else if (e.type === 'FindingRaised') findings.push(e.data as Finding);
  }
  return findings
    .map((f) => ({
      ...f,
      handled: f.handled === true,
      game: games.get(f.tableId) ?? null,
      dealerId: f.roundId === null ? null : (dealers.get(f.roundId) ?? null),
    }))
    .sort(compareFindings);
}

/** Registers the suite's tests; `adapter()` is called after the store holds its findings. */
export function findingsQueryConformance(context: () => { adapter: FindingsQuery; store: EventStore }): void {
  let all: FindingView[];
  const ids = (xs: readonly FindingView[]) => xs.map((x) => x.findingId);
  const everyPage = async (q: FindingsQuery, filter: FindingFilter, limit: number) => {
    const got: FindingView[] = [];
    let after = null;
    let total = -1;
    for (;;) {
      const page = await q.list(filter, { limit, after });
      if (total >= 0) assert.equal(page.total, total, 'the same count on every page');
      total = page.total;
      got.push(...page.items);
      if (page.next === null) break;
      after = page.next;
    }
    return { got, total };
  };
  const expectFilter = async (filter: Partial<FindingFilter>, keep: (f: FindingView) => boolean) => {
    const { got, total } = await everyPage(context().adapter, { scope: null, ...filter }, 50);
    const want = all.filter(keep);
    assert.deepEqual(ids(got), ids(want), JSON.stringify(filter));
    assert.equal(total, want.length, JSON.stringify(filter));
  };

  it('pages through every finding once, newest first then by id, with stable cursors', async () => {
    all = await storedFindings(context().store);
    assert.ok(all.length > 20, 'the store has findings');
    const { got, total } = await everyPage(context().adapter, { scope: null }, 7);
    assert.equal(total, all.length);
    assert.deepEqual(ids(got), ids(all));
  });

  it('filters by every field, alone, as the stored findings say', async () => {
    const f = all.find((x) => x.players.length > 0 && x.dealerId !== null && x.roundId !== null)!;
    assert.ok(f, 'a finding with a player, a dealer and a round');
    await expectFilter({ scope: f.concessionaire }, (x) => x.concessionaire === f.concessionaire);
    await expectFilter({ concessionaire: f.concessionaire }, (x) => x.concessionaire === f.concessionaire);
    await expectFilter({ casino: f.casino }, (x) => x.casino === f.casino);
    await expectFilter({ tableId: f.tableId }, (x) => x.tableId === f.tableId);
    await expectFilter({ game: 'F3CP' }, (x) => x.game === 'F3CP');
    await expectFilter({ checkId: f.checkId }, (x) => x.checkId === f.checkId);
    await expectFilter({ severity: f.severity }, (x) => x.severity === f.severity);
    await expectFilter({ dealerId: f.dealerId! }, (x) => x.dealerId === f.dealerId);
    await expectFilter({ playerId: f.players[0]! }, (x) => x.players.includes(f.players[0]!));
    await expectFilter({ roundId: f.roundId! }, (x) => x.roundId === f.roundId);
    await expectFilter({ alertsOnly: true }, (x) => !x.handled);
    await expectFilter(
      { from: f.eventTime, to: f.eventTime + 3_600_000 },
      (x) => x.eventTime >= f.eventTime && x.eventTime < f.eventTime + 3_600_000,
    );
    // the edges of a range, exactly (the ClickHouse adapter also bounds the Macau dates: to is exclusive)
    await expectFilter({ from: f.eventTime, to: f.eventTime + 1 }, (x) => x.eventTime === f.eventTime);
    await expectFilter({ to: f.eventTime }, (x) => x.eventTime < f.eventTime);
    await expectFilter({ from: f.eventTime + 1 }, (x) => x.eventTime > f.eventTime);
    // the Macau day of the finding, from its midnight in Macau (16:00 UTC the day before) to the next
    const dayStart = Math.floor((f.eventTime + 8 * 3_600_000) / 86_400_000) * 86_400_000 - 8 * 3_600_000;
    await expectFilter(
      { from: dayStart, to: dayStart + 86_400_000 },
      (x) => x.eventTime >= dayStart && x.eventTime < dayStart + 86_400_000,
    );
    await expectFilter({ to: dayStart }, (x) => x.eventTime < dayStart);
    await expectFilter({ scope: f.concessionaire, concessionaire: `${f.concessionaire}x` }, () => false);
    for (const hostile of ["' OR '1'='1", "x') OR 1=1 --", '\\', '{scope:String}'])
      await expectFilter({ casino: hostile, playerId: hostile }, () => false);
  });

  it('gets a finding by id within the scope only, as stored', async () => {
    const q = context().adapter;
    for (const f of all.slice(0, 25)) {
      const got = await q.get(f.findingId, null);
      assert.ok(got, f.findingId);
      for (const k of [
        'checkId',
        'title',
        'severity',
        'handled',
        'ruleSet',
        'casino',
        'concessionaire',
        'tableId',
        'roundId',
        'game',
        'dealerId',
        'seats',
        'players',
        'summary',
        'expected',
        'declared',
        'citations',
        'interpretations',
        'evidenceEventIds',
        'eventTime',
      ] as const)
        assert.deepEqual(got[k], f[k], `${f.findingId}.${k}`);
      assert.equal((await q.get(f.findingId, f.concessionaire))?.findingId, f.findingId);
      assert.equal(await q.get(f.findingId, `not ${f.concessionaire}`), null);
    }
    assert.equal(await q.get('no-such-finding', null), null);
  });

  it('counts by every dimension, most first, within the filter', async () => {
    for (const by of COUNT_DIMENSIONS) {
      const want = new Map<string | null, number>();
      for (const f of all) want.set(f[by], (want.get(f[by]) ?? 0) + 1);
      const got = await context().adapter.count({ scope: null }, by);
      assert.deepEqual(new Map(got.map((c) => [c.value, c.count])), want, by);
      for (let i = 1; i < got.length; i++) assert.ok(got[i - 1]!.count >= got[i]!.count, `${by}: most first`);
    }
    const f = all[0]!;
    const scoped = await context().adapter.count({ scope: f.concessionaire }, 'concessionaire');
    assert.deepEqual(scoped, [
      { value: f.concessionaire, count: all.filter((x) => x.concessionaire === f.concessionaire).length },
    ]);
  });

  it('answers ping', async () => {
    await context().adapter.ping();
  });
}
