import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  change,
  cleanRound,
  eventLike,
  first,
  insertAfter,
  is,
  shiftTimes,
  type RoundSpec,
} from './clean-round.ts';
import { threeHands, WITH_PROGRESSIVE } from './fixtures.ts';
import { citationKeys, given, onlyFinding, replayTable } from './spec.ts';

/** A Flush against the banker's Three of a Kind: the order of the two is what 94/2025 changed. */
const FLUSH_VS_TRIPS: RoundSpec = {
  seats: [{ seat: 2, ante: 10_000, pairPlus: 10_000, cards: 'Kh 9h 4h' }],
  banker: '5s 5d 5c',
};
const DAYS_19 = 19 * 24 * 3_600_000;

describe('arts. 7.º and 13.º–16.º: outcome and payouts', () => {
  it('art. 13.º 3): seat 1’s Ante wins MOP 100 but MOP 200 is paid → PAYOUT.MISMATCH, with expected and declared', () => {
    const events = change(
      threeHands(),
      'PayoutMade',
      (p) => p.seat === 1 && p.betType === 'ANTE',
      (p) => (p.amount = 20_000),
    );
    const t = given(events).when(replayTable).then(['F3CP.PAYOUT.MISMATCH']).positive('F3CP.PAYOUT.MISMATCH');
    const f = onlyFinding(t, 'F3CP.PAYOUT.MISMATCH');
    assert.deepEqual(f.declared, { payout: 20_000, collected: 0, returned: 0 });
    assert.equal((f.expected as { payout: number }).payout, 10_000);
    assert.ok(citationKeys(f).includes('89/2025 art.13 al.3'));
  });

  it('art. 7.º n.º 1 (f3cp-2025, 2025-11-12): a Flush beats Three of a Kind — settled as under 94/2025 → PAYOUT.MISMATCH + OUTCOME.MISDECLARED', () => {
    // declared as the amended order decides it (Flush loses), on a date the original order governs
    const events = shiftTimes(cleanRound(FLUSH_VS_TRIPS), -DAYS_19);
    const t = given(events)
      .when(replayTable)
      .then(['F3CP.PAYOUT.MISMATCH', 'F3CP.OUTCOME.MISDECLARED'])
      .positive('F3CP.OUTCOME.MISDECLARED');
    assert.equal(t.replay.rounds[0]!.ruleSet, 'f3cp-2025');
    assert.deepEqual(
      t.of('F3CP.PAYOUT.MISMATCH').map((f) => f.seats[0]),
      [2, 2],
    );
  });

  it('art. 7.º n.º 1 (f3cp-2025, 2025-11-12): the Flush is paid as the winner over Three of a Kind → nothing', () => {
    const events = cleanRound(FLUSH_VS_TRIPS, { start: '2025-11-12T14:00:00+08:00' });
    assert.equal(first(events, 'OutcomeDeclared').seats[0]!.result, 'WIN');
    const t = given(events)
      .when(replayTable)
      .then([])
      .negative('F3CP.PAYOUT.MISMATCH')
      .negative('F3CP.OUTCOME.MISDECLARED');
    assert.equal(t.replay.rounds[0]!.ruleSet, 'f3cp-2025');
  });

  it('art. 7.º n.º 1 (f3cp-2025a, 2025-12-01): the same Flush loses to Three of a Kind → nothing', () => {
    const events = cleanRound(FLUSH_VS_TRIPS);
    assert.equal(first(events, 'OutcomeDeclared').seats[0]!.result, 'LOSE');
    given(events).when(replayTable).then([]).negative('F3CP.PAYOUT.MISMATCH');
  });

  it('art. 13.º: seat 3’s folded Ante collected twice → PAYOUT.REPEATED + PAYOUT.MISMATCH', () => {
    const base = threeHands();
    const once = first(base, 'BetCollected', (b) => b.seat === 3);
    const events = insertAfter(
      base,
      is('BetCollected', (b) => b.seat === 3),
      eventLike(once, 'BetCollected', { seat: 3, betType: 'ANTE', amount: 20_000, betId: null }),
    );
    given(events)
      .when(replayTable)
      .then(['F3CP.PAYOUT.REPEATED', 'F3CP.PAYOUT.MISMATCH'])
      .positive('F3CP.PAYOUT.REPEATED');
  });

  it('art. 15.º n.º 3: a Flush jackpot paid twice to seat 1 → PAYOUT.REPEATED', () => {
    const base = cleanRound({
      ...WITH_PROGRESSIVE,
      seats: WITH_PROGRESSIVE.seats.map((s) => (s.seat === 1 ? { ...s, cards: '7h 9h Jh' } : s)),
      community: '3h 5h',
    });
    const paid = first(base, 'JackpotPaid');
    const { header: _h, ...body } = paid;
    const events = insertAfter(base, is('JackpotPaid'), eventLike(paid, 'JackpotPaid', body));
    given(events).when(replayTable).then(['F3CP.PAYOUT.REPEATED']).positive('F3CP.PAYOUT.REPEATED');
  });

  it('art. 13.º 3): seat 1’s Ante and Play each win MOP 100: two equal payouts on one seat are two bets → nothing', () => {
    const events = threeHands();
    const ante = first(events, 'PayoutMade', (p) => p.seat === 1 && p.betType === 'ANTE');
    const play = first(events, 'PayoutMade', (p) => p.seat === 1 && p.betType === 'PLAY');
    assert.equal(ante.amount, play.amount);
    given(events).when(replayTable).then([]).negative('F3CP.PAYOUT.REPEATED');
  });

  it('art. 13.º 1): the banker’s Q-J-3 declared not qualifying → OUTCOME.MISDECLARED (J11)', () => {
    const events = change(
      threeHands(),
      'OutcomeDeclared',
      () => true,
      (o) => (o.bankerQualifies = false),
    );
    const t = given(events)
      .when(replayTable)
      .then(['F3CP.OUTCOME.MISDECLARED'])
      .positive('F3CP.OUTCOME.MISDECLARED');
    assert.ok(onlyFinding(t, 'F3CP.OUTCOME.MISDECLARED').interpretations.includes('J11'));
  });

  it('art. 13.º: the seats declared right to left instead of left to right → nothing', () => {
    const events = change(
      threeHands(),
      'OutcomeDeclared',
      () => true,
      (o) => o.seats.reverse(),
    );
    given(events).when(replayTable).then([]).negative('F3CP.OUTCOME.MISDECLARED');
  });
});
