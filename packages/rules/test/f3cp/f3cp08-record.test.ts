import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  change,
  eventLike,
  first,
  insertAfter,
  is,
  moveBefore,
  TableBuilder,
  voidRound,
} from './clean-round.ts';
import { dealt } from './fixtures.ts';
import { TABLE_2008, THREE_HANDS_2008, threeHands2008 } from './fixtures-2008.ts';
import { given, givenAsStored, onlyFinding, replayTable } from './spec.ts';

/**
 * The record checks of a 2008 table (event times, table settings, rounds closed, each source's numbering): the
 * same questions as the 2025 record checks, asked under 78/2008 with the F3CP08 ids and 2008 citations only.
 */

const HOUR = 3_600_000;

const cites2008Only = (f: { citations: readonly { key: string }[] }) => {
  for (const c of f.citations) assert.match(c.key, /^(78|97)\/2008 /, c.key);
};

describe('78/2008: the record of a 2008 table', () => {
  it('one BetPlaced stamped a year late → F3CP08.EVENT.TIME_OUT_OF_LINE, the round still judged under f3cp-2008a', () => {
    const events = change(
      threeHands2008(),
      'BetPlaced',
      () => true,
      (b) => (b.header.eventTime += 365 * 24 * HOUR),
      0,
    );
    const t = given(events)
      .when(replayTable)
      .then(['F3CP08.EVENT.TIME_OUT_OF_LINE'])
      .positive('F3CP08.EVENT.TIME_OUT_OF_LINE');
    cites2008Only(onlyFinding(t, 'F3CP08.EVENT.TIME_OUT_OF_LINE'));
    assert.equal(t.replay.rounds[0]!.ruleSet, 'f3cp-2008a');
  });

  it('one BetPlaced stamped five hours late, inside the six-hour span → nothing', () => {
    const events = change(
      threeHands2008(),
      'BetPlaced',
      () => true,
      (b) => (b.header.eventTime += 5 * HOUR),
      0,
    );
    given(events).when(replayTable).then([]).negative('F3CP08.EVENT.TIME_OUT_OF_LINE');
  });

  it('the table opened again without closing, the Ante maximum raised → F3CP08.TABLE.RECONFIGURED', () => {
    const t = new TableBuilder(TABLE_2008);
    t.round(THREE_HANDS_2008);
    const { header: _h, ...settings } = t.config;
    t.emit('TableOpened', null, {
      ...settings,
      betLimits: settings.betLimits.map((l) => (l.betType === 'ANTE' ? { ...l, maximum: 3_000_000 } : l)),
    });
    t.round(THREE_HANDS_2008);
    const r = given(t.close())
      .when(replayTable)
      .then(['F3CP08.TABLE.RECONFIGURED'])
      .positive('F3CP08.TABLE.RECONFIGURED');
    cites2008Only(onlyFinding(r, 'F3CP08.TABLE.RECONFIGURED'));
  });

  it('the table closed, then opened with the new maximum → nothing', () => {
    const t = new TableBuilder(TABLE_2008);
    t.round(THREE_HANDS_2008);
    t.emit('TableClosed', null, { reason: 'limits changed' });
    const { header: _h, ...settings } = t.config;
    t.emit('TableOpened', null, {
      ...settings,
      betLimits: settings.betLimits.map((l) => (l.betType === 'ANTE' ? { ...l, maximum: 3_000_000 } : l)),
    });
    t.round(THREE_HANDS_2008);
    given(t.close()).when(replayTable).then([]).negative('F3CP08.TABLE.RECONFIGURED');
  });

  it('a stake collected after its round was voided → F3CP08.ROUND.EVENT_AFTER_CLOSE', () => {
    const base = voidRound(threeHands2008(), { reason: 'SHUFFLER_MALFUNCTION' });
    const voided = first(base, 'RoundVoided');
    const late = eventLike(voided, 'BetCollected', { seat: 1, betType: 'ANTE', amount: 10_000, betId: null });
    const t = given(insertAfter(base, is('RoundVoided'), late))
      .when(replayTable)
      .thenFindings((found) => found.forEach(cites2008Only))
      .positive('F3CP08.ROUND.EVENT_AFTER_CLOSE');
    const f = onlyFinding(t, 'F3CP08.ROUND.EVENT_AFTER_CLOSE');
    assert.equal(f.roundId, voided.header.roundId);
    cites2008Only(f);
  });

  it('a round closed, and nothing of it after → nothing', () => {
    given(threeHands2008()).when(replayTable).then([]).negative('F3CP08.ROUND.EVENT_AFTER_CLOSE');
  });

  it('a Pair Plus stored after the first card but numbered before it → F3CP08.EVENT.SEQUENCE, the round not re-derived', () => {
    const events = moveBefore(
      threeHands2008(),
      is('BetPlaced', (b) => b.betType === 'PAIR_PLUS'),
      dealt(2),
    );
    const t = givenAsStored(events)
      .when(replayTable)
      .then(['F3CP08.EVENT.SEQUENCE'])
      .positive('F3CP08.EVENT.SEQUENCE');
    assert.equal(t.replay.rounds[0]!.notDerived?.code, 'out-of-order');
    assert.ok(t.of('F3CP08.EVENT.SEQUENCE').some((f) => f.details?.['kind'] === 'backwards'));
    t.of('F3CP08.EVENT.SEQUENCE').forEach(cites2008Only);
  });

  it('every source numbering its events 1, 2, 3, … → nothing', () => {
    givenAsStored(threeHands2008()).when(replayTable).then([]).negative('F3CP08.EVENT.SEQUENCE');
  });
});
