import assert from 'node:assert/strict';
import type { F3cpEvent } from '@table-audit/schemas/events';
import { describe, it } from 'node:test';
import {
  change,
  copy,
  eventLike,
  moveBefore,
  first,
  insertAfter,
  insertBefore,
  is,
  removeWhere,
  TableBuilder,
  voidRound,
} from './clean-round.ts';
import { dealt, observation, THREE_HANDS, threeHands } from './fixtures.ts';
import { given, givenAsStored, onlyFinding, replayTable } from './spec.ts';

const HOUR = 3_600_000;

describe('the record: rounds opened and closed, event times, table settings', () => {
  it('art. 10.º 3): the round’s events without its RoundStarted → ROUND.NOT_STARTED', () => {
    const events = removeWhere(threeHands(), is('RoundStarted'));
    given(events).when(replayTable).then(['F3CP.ROUND.NOT_STARTED']).positive('F3CP.ROUND.NOT_STARTED');
  });

  it('art. 10.º 3): the round opens with RoundStarted → nothing', () => {
    given(threeHands()).when(replayTable).then([]).negative('F3CP.ROUND.NOT_STARTED');
  });

  it('arts. 13.º and 17.º n.º 1: a round settled bet by bet but never closed, ended by the table closing → ROUND.NOT_CLOSED', () => {
    const events = removeWhere(threeHands(), is('RoundSettled'));
    const t = given(events)
      .when(replayTable)
      .then(['F3CP.ROUND.NOT_CLOSED'])
      .positive('F3CP.ROUND.NOT_CLOSED');
    assert.match(onlyFinding(t, 'F3CP.ROUND.NOT_CLOSED').summary, /TableClosed/);
  });

  it('art. 17.º n.º 1: a round closed by RoundVoided (two player cards exposed) → nothing', () => {
    const base = threeHands();
    const exposed = (n: number) => {
      const d = first(base, 'CardDealt', (x) => x.dealOrder === n);
      return eventLike(d, 'CardExposed', { card: d.card, target: 'SEAT', seat: d.seat, duringDeal: true });
    };
    const events = voidRound(insertBefore(base, dealt(6), exposed(2), exposed(5)), {
      reason: 'PLAYER_CARDS_EXPOSED',
    });
    given(events).when(replayTable).then([]).negative('F3CP.ROUND.NOT_CLOSED');
  });

  it('despacho n.º 3 and 5: one BetPlaced stamped a year late → EVENT.TIME_OUT_OF_LINE', () => {
    const events = change(
      threeHands(),
      'BetPlaced',
      () => true,
      (b) => (b.header.eventTime += 365 * 24 * HOUR),
      0,
    );
    const t = given(events)
      .when(replayTable)
      .then(['F3CP.EVENT.TIME_OUT_OF_LINE'])
      .positive('F3CP.EVENT.TIME_OUT_OF_LINE');
    assert.equal(t.replay.rounds[0]!.ruleSet, 'f3cp-2025a'); // dated by its other events
  });

  it('despacho n.º 3 and 5: one BetPlaced stamped five hours late, inside the six-hour span → nothing', () => {
    const events = change(
      threeHands(),
      'BetPlaced',
      () => true,
      (b) => (b.header.eventTime += 5 * HOUR),
      0,
    );
    given(events).when(replayTable).then([]).negative('F3CP.EVENT.TIME_OUT_OF_LINE');
  });

  it('art. 10.º 1): the table opened again without closing, the Ante maximum raised to MOP 30,000 → TABLE.RECONFIGURED', () => {
    const t = new TableBuilder();
    t.round(THREE_HANDS);
    const { header: _h, ...settings } = t.config;
    t.emit('TableOpened', null, {
      ...settings,
      jackpot: settings.jackpot && { ...settings.jackpot, initialPool: t.pool! },
      betLimits: settings.betLimits.map((l) => (l.betType === 'ANTE' ? { ...l, maximum: 3_000_000 } : l)),
    });
    t.round(THREE_HANDS);
    given(t.close()).when(replayTable).then(['F3CP.TABLE.RECONFIGURED']).positive('F3CP.TABLE.RECONFIGURED');
  });

  it('art. 10.º 1): the table opened again with the same settings, their keys in another order (as read back from the store) → nothing', () => {
    const t = new TableBuilder();
    t.round(THREE_HANDS);
    const { header: _h, ...settings } = t.config;
    const sortedKeys = (x: unknown): unknown =>
      Array.isArray(x)
        ? x.map(sortedKeys)
        : x !== null && typeof x === 'object'
          ? Object.fromEntries(
              Object.keys(x)
                .sort()
                .reverse()
                .map((k) => [k, sortedKeys((x as Record<string, unknown>)[k])]),
            )
          : x;
    t.emit(
      'TableOpened',
      null,
      sortedKeys({
        ...settings,
        jackpot: settings.jackpot && { ...settings.jackpot, initialPool: t.pool! },
      }) as typeof settings,
    );
    t.round(THREE_HANDS);
    given(t.close()).when(replayTable).then([]).negative('F3CP.TABLE.RECONFIGURED');
  });

  it('art. 10.º 1): the table closed, then opened with the new maximum → nothing', () => {
    const t = new TableBuilder();
    t.round(THREE_HANDS);
    t.emit('TableClosed', null, { reason: 'limits changed' });
    const { header: _h, ...settings } = t.config;
    t.emit('TableOpened', null, {
      ...settings,
      jackpot: settings.jackpot && { ...settings.jackpot, initialPool: t.pool! },
      betLimits: settings.betLimits.map((l) => (l.betType === 'ANTE' ? { ...l, maximum: 3_000_000 } : l)),
    });
    t.round(THREE_HANDS);
    given(t.close()).when(replayTable).then([]).negative('F3CP.TABLE.RECONFIGURED');
  });

  it('arts. 13.º and 17.º n.º 1: a stake collected after its round was voided → ROUND.EVENT_AFTER_CLOSE', () => {
    const base = voidRound(threeHands(), { reason: 'SHUFFLER_MALFUNCTION' });
    const voided = first(base, 'RoundVoided');
    const late = eventLike(voided, 'BetCollected', { seat: 1, betType: 'ANTE', amount: 10_000, betId: null });
    const events = insertAfter(base, is('RoundVoided'), late);
    const t = given(events)
      .when(replayTable)
      .then(['F3CP.ROUND.EVENT_AFTER_CLOSE', 'F3CP.IRREG.WRONGLY_VOIDED'])
      .positive('F3CP.ROUND.EVENT_AFTER_CLOSE');
    const f = onlyFinding(t, 'F3CP.ROUND.EVENT_AFTER_CLOSE');
    assert.equal(f.roundId, voided.header.roundId); // about the voided round, though found after it
    assert.match(f.summary, /BetCollected \(seat 1 ANTE MOP 100\.00\).*RoundVoided/);
  });

  it('art. 18.º n.º 1: an analyst’s observation of the round, reported after it closed → judged as an observation, not as a late event', () => {
    const base = threeHands();
    const settled = first(base, 'RoundSettled');
    const events = insertAfter(base, is('RoundSettled'), observation(settled, 'NOTES', 80));
    const t = given(events)
      .when(replayTable)
      .then(['F3CP.CONDUCT.RECORDING'])
      .negative('F3CP.ROUND.EVENT_AFTER_CLOSE');
    assert.equal(onlyFinding(t, 'F3CP.CONDUCT.RECORDING').roundId, settled.header.roundId);
  });
});

describe('the record: each source numbers its events 1, 2, 3, … (header.sequence)', () => {
  const tc = (events: readonly F3cpEvent[]) =>
    events.filter((e) => e.data.header.sourceKind === 'TABLE_CONTROLLER');

  it('art. 10.º 3): a Pair Plus stored after the first card but numbered before it (a step backwards) → EVENT.SEQUENCE, the round not re-derived', () => {
    // the table numbered its events in order; the record has one moved: the order the law judges is unknown
    const events = moveBefore(
      threeHands(),
      is('BetPlaced', (b) => b.betType === 'PAIR_PLUS'),
      dealt(2),
    );
    const t = givenAsStored(events)
      .when(replayTable)
      .then(['F3CP.EVENT.SEQUENCE'])
      .positive('F3CP.EVENT.SEQUENCE');
    const round = t.replay.rounds[0]!;
    assert.equal(round.notDerived?.code, 'out-of-order');
    assert.ok(t.of('F3CP.EVENT.SEQUENCE').some((f) => f.details?.['kind'] === 'backwards'));
    assert.ok(t.of('F3CP.EVENT.SEQUENCE').some((f) => / round \S+ is not re-derived/.test(f.summary)));
    // the same events numbered in the order they are stored: a late bet, judged as such
    given(events).when(replayTable).then(['F3CP.BET.LATE']);
  });

  it('arts. 10.º 3) and 11.º n.º 1: a number repeated by the table controller → EVENT.SEQUENCE (repeat), the round not re-derived', () => {
    const events = copy(threeHands());
    const second = tc(events).filter((e) => e.type === 'BetPlaced')[1]!;
    second.data.header.sequence -= 1; // the number of the bet before it
    const t = givenAsStored(events).when(replayTable).then(['F3CP.EVENT.SEQUENCE']);
    assert.deepEqual(
      t.of('F3CP.EVENT.SEQUENCE').map((f) => f.details?.['kind']),
      ['repeat', 'gap'], // and the next card, numbered on from the right number, follows a gap of one
    );
    assert.equal(t.replay.rounds[0]!.notDerived?.code, 'out-of-order');
  });

  it('art. 11.º n.º 1: three numbers of the table controller missing (a gap) → EVENT.SEQUENCE, the round still re-derived', () => {
    const events = copy(threeHands());
    const from = tc(events).findIndex((e) => e.type === 'OutcomeDeclared');
    for (const e of tc(events).slice(from)) e.data.header.sequence += 3;
    const t = givenAsStored(events).when(replayTable).then(['F3CP.EVENT.SEQUENCE']);
    const f = onlyFinding(t, 'F3CP.EVENT.SEQUENCE');
    assert.match(f.summary, /OutcomeDeclared .* 3 event\(s\) of the source missing before it$/);
    assert.equal(t.replay.rounds[0]!.notDerived, null, 'a gap leaves the round re-derived');
    assert.deepEqual(
      f.citations.map((c) => c.key),
      ['89/2025 art.10 al.3', '89/2025 art.11 n.1'],
    );
  });

  it('arts. 10.º 3) and 11.º n.º 1: each source (table controller, shuffler) numbering its own events on by one, interleaved → nothing', () => {
    const events = threeHands();
    assert.ok(new Set(events.map((e) => e.data.header.sourceDevice)).size > 1, 'more than one source');
    givenAsStored(events).when(replayTable).then([]).negative('F3CP.EVENT.SEQUENCE');
  });
});
