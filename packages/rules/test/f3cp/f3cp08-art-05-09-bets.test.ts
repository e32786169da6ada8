import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { change } from './clean-round.ts';
import { threeHands2008 } from './fixtures-2008.ts';
import { citationKeys, given, onlyFinding, replayTable } from './spec.ts';

describe('78/2008 art. 5.º and 9.º: the bets of a 2008 table, and the compulsory Play bet', () => {
  it('a clean 2008 round (2019, f3cp-2008a) → no finding, and nothing cites 89/2025', () => {
    const t = given(threeHands2008()).when(replayTable).then([]);
    t.negative('F3CP08.BET.NOT_OFFERED').negative('F3CP08.PLAY.REQUIRED');
    assert.equal(t.replay.rounds[0]!.ruleSet, 'f3cp-2008a');
    assert.doesNotMatch(JSON.stringify(t.replay.rounds[0]!.settlement), /89\/2025/);
  });

  it('art. 9.º 3): seat 1, with Ante and Pair Plus, folds → PLAY.REQUIRED (H4: its Pair Plus is collected)', () => {
    let events = threeHands2008();
    events = events.filter(
      (e) => !(e.type === 'BetPlaced' && e.data.seat === 1 && e.data.betType === 'PLAY'),
    );
    events = change(
      events,
      'PlayDecision',
      (d) => d.seat === 1,
      (d) => (d.decision = 'FOLD'),
    );
    const t = given(events)
      .when(replayTable)
      // the table still paid seat 1 as if it had played: those payouts are wrong too
      .then(['F3CP08.OUTCOME.MISDECLARED', 'F3CP08.PAYOUT.MISMATCH', 'F3CP08.PLAY.REQUIRED'])
      .positive('F3CP08.PLAY.REQUIRED');
    const f = onlyFinding(t, 'F3CP08.PLAY.REQUIRED');
    assert.deepEqual(citationKeys(f), ['78/2008 art.9 al.3']);
    assert.deepEqual(f.interpretations, ['H4']);
    assert.deepEqual(f.seats, [1]);
    const pp = t.replay.rounds[0]!.settlement!.lines.find((l) => l.seat === 1 && l.bet === 'pairPlus')!;
    assert.equal(pp.outcome, 'lose');
  });

  it('art. 9.º 3): seat 3 folds with an Ante alone (no Pair Plus) → nothing', () => {
    given(threeHands2008()).when(replayTable).then([]).negative('F3CP08.PLAY.REQUIRED');
  });

  it('art. 5.º n.º 1: a Six Card Bonus bet on a 2008 table → BET.NOT_OFFERED naming the bet; the stake is due back', () => {
    const events = threeHands2008();
    const ante = events.find((e) => e.type === 'BetPlaced' && e.data.seat === 5)!;
    const six = structuredClone(ante);
    if (six.type === 'BetPlaced') {
      six.data.betType = 'SIX_CARD_BONUS';
      six.data.amount = 5_000;
      six.data.header.eventId += '-six';
      six.data.betId += '-six';
    }
    const at = events.indexOf(ante) + 1;
    const withSix = [...events.slice(0, at), six, ...events.slice(at)];
    const t = given(withSix)
      .when(replayTable)
      // the table kept the Six Card Bonus stake it should have returned
      .then(['F3CP08.BET.NOT_OFFERED', 'F3CP08.PAYOUT.MISMATCH'])
      .positive('F3CP08.BET.NOT_OFFERED');
    const f = onlyFinding(t, 'F3CP08.BET.NOT_OFFERED');
    assert.deepEqual(citationKeys(f), ['78/2008 art.5 n.1']);
    assert.match(f.summary, /SIX_CARD_BONUS bet of MOP 50\.00 on seat 5/);
    const line = t.replay.rounds[0]!.settlement!.lines.find((l) => l.bet === 'sixCardBonus')!;
    assert.equal(line.outcome, 'void');
  });

  it('art. 5.º n.º 1: Ante, Play and Pair Plus only → nothing', () => {
    given(threeHands2008()).when(replayTable).then([]).negative('F3CP08.BET.NOT_OFFERED');
  });
});
