import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { F3cpEvent } from '@table-audit/schemas/events';
import { change, cleanRound, first, insertAfter, is, moveBefore, TableBuilder } from './clean-round.ts';
import { dealt, observation } from './fixtures.ts';
import { TABLE_2008, THREE_HANDS_2008, threeHands2008 } from './fixtures-2008.ts';
import { DEFAULT_REPLAY_OPTIONS } from '../../src/game.ts';
import { citationKeys, given, onlyFinding, replayTable } from './spec.ts';

/**
 * The F3CP08 checks that re-state a 2025 check's logic under a 78/2008 provision (checks/f3cp08-index.ts): each
 * fires with its 2008 id and 2008 citations, never an F3CP. id nor an 89/2025 citation.
 */

const round2008 = (spec = THREE_HANDS_2008) => cleanRound(spec, TABLE_2008);

/** Every finding of a 2008 replay is an F3CP08 one citing 78/2008 or 97/2008 only. */
function only2008(
  findings: readonly {
    checkId: string;
    citations: readonly { key: string }[];
    interpretations: readonly string[];
  }[],
): void {
  for (const f of findings) {
    assert.match(f.checkId, /^F3CP08\./);
    for (const c of f.citations) assert.match(c.key, /^(78|97)\/2008 /, `${f.checkId} cites ${c.key}`);
    for (const i of f.interpretations) assert.match(i, /^H\d+$/, `${f.checkId} depends on ${i}`);
  }
}

describe('78/2008: the checks re-stated from the 2025 family under the 2008 provisions', () => {
  it('art. 9.º, 10.º: seat 1’s Ante wins MOP 100 but MOP 200 is paid → PAYOUT.MISMATCH citing 97/2008’s wording of art. 9.º 6)', () => {
    const events = change(
      threeHands2008(),
      'PayoutMade',
      (p) => p.seat === 1 && p.betType === 'ANTE',
      (p) => (p.amount = 20_000),
    );
    const t = given(events)
      .when(replayTable)
      .then(['F3CP08.PAYOUT.MISMATCH'])
      .positive('F3CP08.PAYOUT.MISMATCH');
    const f = onlyFinding(t, 'F3CP08.PAYOUT.MISMATCH');
    assert.ok(citationKeys(f).includes('78/2008 art.9 al.6 [97/2008]'), citationKeys(f).join(', '));
    only2008(t.replay.findings);
  });

  it('art. 9.º, 10.º: every bet paid as the 2008 rules say → nothing', () => {
    given(threeHands2008())
      .when(replayTable)
      .then([])
      .negative('F3CP08.PAYOUT.MISMATCH')
      .negative('F3CP08.OUTCOME.MISDECLARED');
  });

  it('art. 9.º 4) (H7): the croupier’s Q-J-3 declared not qualifying → OUTCOME.MISDECLARED', () => {
    const events = change(
      threeHands2008(),
      'OutcomeDeclared',
      () => true,
      (o) => (o.bankerQualifies = false),
    );
    const t = given(events).when(replayTable).thenFindings(only2008).positive('F3CP08.OUTCOME.MISDECLARED');
    assert.ok(onlyFinding(t, 'F3CP08.OUTCOME.MISDECLARED').interpretations.includes('H7'));
    only2008(t.replay.findings);
  });

  it('art. 9.º, 10.º: seat 3’s Ante collected twice → PAYOUT.REPEATED', () => {
    const events = threeHands2008();
    const once = first(events, 'BetCollected', (b) => b.seat === 3);
    const twice = structuredClone({ type: 'BetCollected', data: once } as F3cpEvent);
    twice.data.header.eventId += '-again';
    const t = given(
      insertAfter(
        events,
        is('BetCollected', (b) => b.seat === 3),
        twice,
      ),
    )
      .when(replayTable)
      .thenFindings(only2008)
      .positive('F3CP08.PAYOUT.REPEATED');
    only2008(t.replay.findings);
  });

  it('art. 9.º 1): seat 1 plays MOP 200 on an Ante of MOP 100 → BET.PLAY_NOT_EQUAL_ANTE; equal → nothing', () => {
    const events = change(
      threeHands2008(),
      'BetPlaced',
      (b) => b.seat === 1 && b.betType === 'PLAY',
      (b) => (b.amount = 20_000),
    );
    const t = given(events)
      .when(replayTable)
      .thenFindings(only2008)
      .positive('F3CP08.BET.PLAY_NOT_EQUAL_ANTE');
    assert.deepEqual(citationKeys(onlyFinding(t, 'F3CP08.BET.PLAY_NOT_EQUAL_ANTE')), ['78/2008 art.9 al.1']);
    given(threeHands2008()).when(replayTable).then([]).negative('F3CP08.BET.PLAY_NOT_EQUAL_ANTE');
  });

  it('art. 9.º 1): seat 1’s Play bet before the first card → BET.PLAY_BEFORE_DEAL', () => {
    const events = moveBefore(
      threeHands2008(),
      is('BetPlaced', (b) => b.seat === 1 && b.betType === 'PLAY'),
      dealt(1),
    );
    const t = given(events).when(replayTable).thenFindings(only2008).positive('F3CP08.BET.PLAY_BEFORE_DEAL');
    only2008(t.replay.findings);
    given(threeHands2008()).when(replayTable).then([]).negative('F3CP08.BET.PLAY_BEFORE_DEAL');
  });

  it('art. 6.º 3): seat 1’s Pair Plus after the first card → BET.LATE; before it → nothing', () => {
    const events = moveBefore(
      threeHands2008(),
      is('BetPlaced', (b) => b.seat === 1 && b.betType === 'PAIR_PLUS'),
      dealt(2),
    );
    const t = given(events).when(replayTable).then(['F3CP08.BET.LATE']).positive('F3CP08.BET.LATE');
    assert.deepEqual(citationKeys(onlyFinding(t, 'F3CP08.BET.LATE')), ['78/2008 art.6 al.3']);
    given(threeHands2008()).when(replayTable).then([]).negative('F3CP08.BET.LATE');
  });

  it('art. 6.º 1): an Ante of MOP 20,100 over the table’s maximum → BET.LIMITS; within → nothing', () => {
    const events = round2008({
      ...THREE_HANDS_2008,
      seats: [{ ...THREE_HANDS_2008.seats[0]!, ante: 2_010_000 }],
    });
    given(events).when(replayTable).then(['F3CP08.BET.LIMITS']).positive('F3CP08.BET.LIMITS');
    given(threeHands2008()).when(replayTable).then([]).negative('F3CP08.BET.LIMITS');
  });

  it('art. 6.º 2): the player of seat 1 bets the Pair Plus of seat 3 → BET.OTHER_HAND (no J12: 78/2008 has no ZH text)', () => {
    const spec = {
      ...THREE_HANDS_2008,
      seats: THREE_HANDS_2008.seats.map((s) =>
        s.seat === 3 ? { ...s, pairPlus: 10_000, decision: 'PLAY' as const } : s,
      ),
    };
    const events = change(
      round2008(spec),
      'BetPlaced',
      (b) => b.seat === 3 && b.betType === 'PAIR_PLUS',
      (b) => (b.playerId = 'P1'),
    );
    const t = given(events)
      .when(replayTable)
      .then(['F3CP08.BET.OTHER_HAND'])
      .positive('F3CP08.BET.OTHER_HAND');
    assert.deepEqual(onlyFinding(t, 'F3CP08.BET.OTHER_HAND').interpretations, []);
    given(threeHands2008()).when(replayTable).then([]).negative('F3CP08.BET.OTHER_HAND');
  });

  it('art. 2.º n.º 1: a hand on seat 6 of a table with 5 player seats → BET.NO_SUCH_SEAT', () => {
    const spec = {
      ...THREE_HANDS_2008,
      seats: [...THREE_HANDS_2008.seats, { seat: 6, ante: 10_000, cards: '9d 9c 2d' }],
    };
    const t = given(cleanRound(spec, { ...TABLE_2008, seats: 5 }))
      .when(replayTable)
      .thenFindings(only2008)
      .positive('F3CP08.BET.NO_SUCH_SEAT');
    only2008(t.replay.findings);
    given(threeHands2008()).when(replayTable).then([]).negative('F3CP08.BET.NO_SUCH_SEAT');
  });

  it('art. 7.º: seat 1 gets a fourth card and the round is settled → DEAL.COUNT + IRREG.NOT_VOIDED', () => {
    const base = threeHands2008();
    const extra = structuredClone(base.find(dealt(3))!);
    if (extra.type === 'CardDealt') {
      extra.data.card = 'Ah';
      extra.data.dealOrder = 13;
      extra.data.header.eventId += '-4th';
    }
    const events = insertAfter(base, dealt(12), extra);
    const t = given(events)
      .when(replayTable)
      .thenFindings(only2008)
      .positive('F3CP08.DEAL.COUNT')
      .positive('F3CP08.IRREG.NOT_VOIDED');
    only2008(t.replay.findings);
  });

  it('art. 7.º 2): seat 1’s second card dealt face up → DEAL.FACE_UP only, not handled (11.º 2): the round goes on)', () => {
    const events = change(
      threeHands2008(),
      'CardDealt',
      (d) => d.dealOrder === 2,
      (d) => (d.faceUp = true),
    );
    const t = given(events).when(replayTable).then(['F3CP08.DEAL.FACE_UP']).positive('F3CP08.DEAL.FACE_UP');
    assert.equal(onlyFinding(t, 'F3CP08.DEAL.FACE_UP').handled, false);
    given(threeHands2008()).when(replayTable).then([]).negative('F3CP08.DEAL.FACE_UP');
  });

  it('art. 1.º 1): the 5th card repeats the 1st → CARDS.INTEGRITY; distinct cards → nothing', () => {
    const events = change(
      threeHands2008(),
      'CardDealt',
      (d) => d.dealOrder === 5,
      (d) => (d.card = 'Kh'),
    );
    const t = given(events)
      .when(replayTable)
      .then(['F3CP08.CARDS.INTEGRITY'])
      .positive('F3CP08.CARDS.INTEGRITY');
    assert.deepEqual(citationKeys(onlyFinding(t, 'F3CP08.CARDS.INTEGRITY')), ['78/2008 art.1 al.1']);
    given(threeHands2008()).when(replayTable).then([]).negative('F3CP08.CARDS.INTEGRITY');
  });

  it('art. 3.º 1): a manual shuffle without a cut → SHUFFLE.PROCEDURE; the automatic shuffler without a cut → nothing', () => {
    const t = new TableBuilder({ ...TABLE_2008, shuffleMode: 'MANUAL' });
    t.round(THREE_HANDS_2008);
    const events = change(
      t.close(),
      'ShuffleCompleted',
      () => true,
      (s) => (s.cutCardUsed = false),
    );
    const then = given(events).when(replayTable).thenFindings(only2008).positive('F3CP08.SHUFFLE.PROCEDURE');
    assert.deepEqual(citationKeys(onlyFinding(then, 'F3CP08.SHUFFLE.PROCEDURE')), [
      '78/2008 art.3 al.1',
      '78/2008 art.3 al.2',
    ]);
    given(threeHands2008()).when(replayTable).then([]).negative('F3CP08.SHUFFLE.PROCEDURE');
  });

  it('art. 6.º 4): a spectator behind seat 5 lifts its cards → CONDUCT.NON_SEATED_HANDLING; seated players only → nothing', () => {
    const base = threeHands2008();
    const events = insertAfter(
      base,
      dealt(12),
      observation(first(base, 'CardDealt'), 'NON_SEATED_HANDLING', 80, 5),
    );
    const t = given(events)
      .when(replayTable)
      .then(['F3CP08.CONDUCT.NON_SEATED_HANDLING'])
      .positive('F3CP08.CONDUCT.NON_SEATED_HANDLING');
    assert.deepEqual(citationKeys(onlyFinding(t, 'F3CP08.CONDUCT.NON_SEATED_HANDLING')), [
      '78/2008 art.6 al.4',
    ]);
    given(base).when(replayTable).then([]).negative('F3CP08.CONDUCT.NON_SEATED_HANDLING');
  });

  it('no art. 18.º in 78/2008: notes, cards shown to a spectator → no finding for a 2008 round (2025 would raise CONDUCT.*)', () => {
    const base = threeHands2008();
    let events = insertAfter(base, dealt(12), observation(first(base, 'CardDealt'), 'NOTES', 90, 3));
    events = insertAfter(
      events,
      dealt(11),
      observation(first(base, 'CardDealt'), 'CARD_SHOWN_TO_THIRD_PARTY', 90, 3),
    );
    given(events).when(replayTable).then([]);
  });

  it('the round events without a RoundStarted → ROUND.NOT_STARTED; with it → nothing', () => {
    const events = threeHands2008().filter((e) => e.type !== 'RoundStarted');
    const t = given(events).when(replayTable).thenFindings(only2008).positive('F3CP08.ROUND.NOT_STARTED');
    only2008(t.replay.findings);
    given(threeHands2008()).when(replayTable).then([]).negative('F3CP08.ROUND.NOT_STARTED');
  });

  it('a round with neither RoundSettled nor RoundVoided nor any settlement → ROUND.NOT_CLOSED; closed → nothing', () => {
    const events = threeHands2008().filter(
      (e) =>
        !['OutcomeDeclared', 'PayoutMade', 'BetCollected', 'BetReturned', 'RoundSettled'].includes(e.type),
    );
    const t = given(events).when(replayTable).thenFindings(only2008).positive('F3CP08.ROUND.NOT_CLOSED');
    only2008(t.replay.findings);
    given(threeHands2008()).when(replayTable).then([]).negative('F3CP08.ROUND.NOT_CLOSED');
  });
});

describe('H1 selectable for a replay (ReplayOptions.alternatives)', () => {
  // seat 1 holds A-K-Q of hearts against the croupier's K-Q-J of spades, paid as the highest Straight Flush
  const SPEC = {
    seats: [{ seat: 1, ante: 10_000, pairPlus: 10_000, cards: 'Ah Kh Qh' }],
    banker: 'Ks Qs Js',
  };

  it('chosen reading (art. 4.º 2)): A-K-Q suited paid as a Straight Flush → nothing', () => {
    given(round2008(SPEC)).when(replayTable).then([]).negative('F3CP08.PAYOUT.MISMATCH');
  });

  it('alternative reading (art. 8.º 1) literally): the same round replayed with H1 alternative → PAYOUT.MISMATCH + OUTCOME.MISDECLARED', () => {
    const t = given(round2008(SPEC))
      .when((events) => replayTable(events, { ...DEFAULT_REPLAY_OPTIONS, alternatives: ['H1'] }))
      .then(['F3CP08.OUTCOME.MISDECLARED', 'F3CP08.PAYOUT.MISMATCH'])
      .positive('F3CP08.PAYOUT.MISMATCH');
    assert.equal(t.replay.rounds[0]!.settlement!.seats[0]!.hand, 'flush');
  });
});
