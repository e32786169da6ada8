/**
 * Alternative readings that act on the procedure checks (J12, J13, J15, J17, J18, J21, H6), each as Given / When /
 * Then: given the events a table emitted, when the table is replayed under the register's readings and under the
 * alternative, then the check ids found differ where the reading matters and agree where it does not. The
 * findings raised under an alternative cite the interpretation they depend on.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { F3cpEvent } from '@table-audit/schemas/events';
import type { Finding } from '../src/findings.ts';
import { DEFAULT_REPLAY_OPTIONS } from '../src/game.ts';
import {
  change,
  cleanRound,
  eventLike,
  first,
  insertAfter,
  renumber,
  TableBuilder,
  voidRound,
} from './f3cp/clean-round.ts';
import { dealt, observation, THREE_HANDS, threeHands, withProgressive } from './f3cp/fixtures.ts';
import { threeHands2008 } from './f3cp/fixtures-2008.ts';
import { replayTable } from './f3cp/spec.ts';

const ids = (findings: readonly Finding[]) => [...new Set(findings.map((f) => f.checkId))].sort();

/** Given the events, when replayed under the register's readings and under alternative `key`. */
function given(events: readonly F3cpEvent[], key: string) {
  const flat = renumber(events);
  const chosen = replayTable(flat, DEFAULT_REPLAY_OPTIONS).findings;
  const alternative = replayTable(flat, { ...DEFAULT_REPLAY_OPTIONS, alternatives: [key] }).findings;
  const self = {
    chosen,
    alternative,
    /** the check ids found under each reading */
    then(expectChosen: readonly string[], expectAlternative: readonly string[]) {
      assert.deepEqual(ids(chosen), [...expectChosen].sort(), `${key}: chosen reading`);
      assert.deepEqual(ids(alternative), [...expectAlternative].sort(), `${key}: alternative reading`);
      return self;
    },
    thenAgree() {
      assert.deepEqual(
        alternative.map((f) => `${f.checkId} ${f.summary}`),
        chosen.map((f) => `${f.checkId} ${f.summary}`),
        `${key} should change nothing here`,
      );
      return self;
    },
    /** the one finding of `checkId` under the alternative */
    alt(checkId: string): Finding {
      const list = alternative.filter((f) => f.checkId === checkId);
      assert.equal(list.length, 1, `one ${checkId} under ${key}`);
      return list[0]!;
    },
  };
  return self;
}

describe('procedure alternatives of the 2025 rules: Given a table’s events, When replayed under both readings, Then …', () => {
  // P1 sits at seat 1 but bets only on seat 3, where nobody sits
  const elsewhere = () => {
    const t = new TableBuilder();
    t.seat(1, 'P1');
    t.round({
      ...THREE_HANDS,
      seats: THREE_HANDS.seats
        .filter((s) => s.seat !== 1)
        .map((s) => (s.seat === 3 ? { ...s, player: null } : s)),
    });
    return change(
      t.close(),
      'BetPlaced',
      (b) => b.seat === 3,
      (b) => (b.playerId = 'P1'),
    );
  };

  it('J12: P1, seated at seat 1, bets only on the empty seat 3 — chosen (ZH, the seat): BET.OTHER_HAND; alternative (PT, own hand): nothing', () => {
    given(elsewhere(), 'J12').then(['F3CP.BET.OTHER_HAND'], []);
  });

  it('J12: P1 bets on seat 1 and on seat 3 (jointly), or on a hand another player occupies — agree', () => {
    const joint = change(
      cleanRound({
        ...THREE_HANDS,
        seats: THREE_HANDS.seats.map((s) => (s.seat === 3 ? { ...s, player: null } : s)),
      }),
      'BetPlaced',
      (b) => b.seat === 3,
      (b) => (b.playerId = 'P1'),
    );
    const t = given(joint, 'J12').then(['F3CP.BET.OTHER_HAND'], ['F3CP.BET.OTHER_HAND']);
    const f = t.alt('F3CP.BET.OTHER_HAND');
    assert.ok(f.interpretations.includes('J12'));
    assert.ok(
      f.citations.some((c) => c.key === '89/2025 art.10 al.2'),
      JSON.stringify(f.citations),
    );
    const occupied = change(
      cleanRound(THREE_HANDS),
      'BetPlaced',
      (b) => b.seat === 3,
      (b) => (b.playerId = 'P1'),
    );
    given(occupied, 'J12').then(['F3CP.BET.OTHER_HAND'], ['F3CP.BET.OTHER_HAND']);
  });

  // surveillance sees the cards of seat 5 held by someone; the observation names the player concerned
  const handled = (player: string) => {
    const events = threeHands();
    return change(
      insertAfter(events, dealt(12), observation(first(events, 'CardDealt'), 'NON_SEATED_HANDLING', 80, 5)),
      'SurveillanceObservation',
      () => true,
      (o) => (o.playerId = player),
    );
  };

  it("J13: P1, seated at seat 1, holds seat 5's cards — chosen (ZH, that hand's player only): CONDUCT.NON_SEATED_HANDLING; alternative (PT, any seated player): nothing", () => {
    given(handled('P1'), 'J13').then(['F3CP.CONDUCT.NON_SEATED_HANDLING'], []);
  });

  it("J13: a spectator behind seat 5 (the observation names seat 5's own player, or a player seated nowhere) — agree", () => {
    given(handled('P5'), 'J13')
      .then(['F3CP.CONDUCT.NON_SEATED_HANDLING'], ['F3CP.CONDUCT.NON_SEATED_HANDLING'])
      .thenAgree();
    const t = given(handled('X9'), 'J13').thenAgree();
    assert.ok(t.alt('F3CP.CONDUCT.NON_SEATED_HANDLING').interpretations.includes('J13'));
  });

  // two community cards dealt, face down, in a round with no Progressive bet; the round settled
  const communityWithoutBets = () => {
    const base = threeHands();
    const last = first(base, 'CardDealt', (d) => d.dealOrder === 12);
    const card = (c: string, dealOrder: number) =>
      eventLike(last, 'CardDealt', { card: c, target: 'COMMUNITY', seat: null, faceUp: false, dealOrder });
    return insertAfter(base, dealt(12), card('9h', 13), card('8d', 14));
  };

  it('J17: community cards dealt with no Progressive bet, the round settled — chosen: nothing; alternative: DEAL.COMMUNITY and IRREG.NOT_VOIDED', () => {
    const t = given(communityWithoutBets(), 'J17').then([], ['F3CP.DEAL.COMMUNITY', 'F3CP.IRREG.NOT_VOIDED']);
    const notVoided = t.alt('F3CP.IRREG.NOT_VOIDED');
    assert.ok(notVoided.interpretations.includes('J17'));
    assert.ok(notVoided.citations.some((c) => c.key === '89/2025 art.17 n.1 al.1'));
    assert.ok(t.alt('F3CP.DEAL.COMMUNITY').citations.some((c) => c.key === '89/2025 art.11 n.3'));
  });

  it('J17: community cards dealt for Progressive bets, or none dealt — agree', () => {
    given(withProgressive(), 'J17').then([], []).thenAgree();
    given(threeHands(), 'J17').then([], []).thenAgree();
  });

  // the banker's first card (deal order 10) dealt face up
  const bankerFaceUp = () =>
    change(
      threeHands(),
      'CardDealt',
      (d) => d.dealOrder === 10,
      (d) => (d.faceUp = true),
    );

  it('J18: a banker card dealt face up, the round settled — chosen: IRREG.NOT_VOIDED beside DEAL.FACE_UP; alternative: DEAL.FACE_UP only', () => {
    const t = given(bankerFaceUp(), 'J18').then(
      ['F3CP.DEAL.FACE_UP', 'F3CP.IRREG.NOT_VOIDED'],
      ['F3CP.DEAL.FACE_UP'],
    );
    assert.ok(t.alt('F3CP.DEAL.FACE_UP').interpretations.includes('J18'));
  });

  it('J18: a banker card dealt face up, the round voided — chosen: DEAL.FACE_UP handled; alternative: IRREG.WRONGLY_VOIDED, DEAL.FACE_UP not handled', () => {
    const events = voidRound(bankerFaceUp(), { reason: 'BANKER_CARD_EXPOSED' });
    const t = given(events, 'J18').then(
      ['F3CP.DEAL.FACE_UP'],
      ['F3CP.DEAL.FACE_UP', 'F3CP.IRREG.WRONGLY_VOIDED'],
    );
    assert.equal(t.chosen.find((f) => f.checkId === 'F3CP.DEAL.FACE_UP')!.handled, true);
    assert.equal(t.alt('F3CP.DEAL.FACE_UP').handled, false);
    const wrongly = t.alt('F3CP.IRREG.WRONGLY_VOIDED');
    assert.ok(wrongly.interpretations.includes('J18'));
    assert.ok(wrongly.citations.some((c) => c.key === '89/2025 art.17 n.4'));
  });

  it('J18: one player card dealt face up (the round goes on under both), or no card face up — agree', () => {
    const one = change(
      threeHands(),
      'CardDealt',
      (d) => d.dealOrder === 2,
      (d) => (d.faceUp = true),
    );
    given(one, 'J18').then(['F3CP.DEAL.FACE_UP'], ['F3CP.DEAL.FACE_UP']).thenAgree();
    given(threeHands(), 'J18').then([], []);
  });

  // P1 stands up from seat 1 after the deal; then, before the round ends, sits at `seat` (or nowhere)
  const leaves = (seat: number | null) => {
    const base = threeHands();
    const sensor = (type: 'SeatVacated' | 'SeatOccupied', at: number) =>
      eventLike(
        first(base, 'CardDealt'),
        type,
        { seat: at, playerId: 'P1' },
        { roundId: null, sourceKind: 'SEAT_SENSOR' },
      );
    return insertAfter(
      base,
      dealt(12),
      sensor('SeatVacated', 1),
      ...(seat === null ? [] : [sensor('SeatOccupied', seat)]),
    );
  };

  it('J21: P1 moves from seat 1 to seat 4 during the round — chosen (PT, the seat): CONDUCT.LEFT_SEAT; alternative (ZH, the table): nothing', () => {
    given(leaves(4), 'J21').then(['F3CP.CONDUCT.LEFT_SEAT'], []);
  });

  it('J21: P1 leaves seat 1 and does not sit again during the round, or sits at seat 1 again — agree', () => {
    const t = given(leaves(null), 'J21')
      .then(['F3CP.CONDUCT.LEFT_SEAT'], ['F3CP.CONDUCT.LEFT_SEAT'])
      .thenAgree();
    assert.ok(t.alt('F3CP.CONDUCT.LEFT_SEAT').interpretations.includes('J21'));
    given(leaves(1), 'J21').then(['F3CP.CONDUCT.LEFT_SEAT'], ['F3CP.CONDUCT.LEFT_SEAT']).thenAgree();
  });
  // the shuffler fails after the 4th card; with `reshuffle`, the cards are reshuffled before the deal goes on
  const malfunction = (reshuffle: boolean, base = threeHands()) => {
    const fourth = first(base, 'CardDealt', (d) => d.dealOrder === 4);
    const shuffler = { roundId: null, sourceKind: 'SHUFFLER' as const };
    const shuffle = { mode: 'AUTOMATIC' as const, shufflerId: 'SH-T-01', shuffleId: null };
    return insertAfter(
      base,
      dealt(4),
      eventLike(fourth, 'ShufflerMalfunction', {
        shufflerId: 'SH-T-01',
        duringDeal: true,
        description: 'card jam',
      }),
      ...(reshuffle
        ? [
            eventLike(fourth, 'ShuffleStarted', shuffle, shuffler),
            eventLike(
              fourth,
              'ShuffleCompleted',
              {
                ...shuffle,
                shuffledBy: null,
                cutCardUsed: false,
                cutBy: 'NONE',
                cutBySeat: null,
                cutById: null,
              },
              shuffler,
            ),
          ]
        : []),
    );
  };

  it('J15: the shuffler fails, the cards are reshuffled and the deal goes on to a settlement — chosen (the round ends): IRREG.SHUFFLER_NOT_SUSPENDED; alternative (paused, resumed): nothing', () => {
    const t = given(malfunction(true), 'J15').then(['F3CP.IRREG.SHUFFLER_NOT_SUSPENDED'], []);
    assert.equal(t.alternative.length, 0);
  });

  it('J15: the same with Progressive bets, settled in the round — alternative: they move to the next round (art. 17.º n.º 3), so settling them is PAYOUT.MISMATCH', () => {
    const t = given(malfunction(true, withProgressive()), 'J15').then(
      ['F3CP.IRREG.SHUFFLER_NOT_SUSPENDED'],
      ['F3CP.PAYOUT.MISMATCH'],
    );
    const wrong = t.alternative.filter((f) => f.checkId === 'F3CP.PAYOUT.MISMATCH');
    assert.ok(
      wrong.length > 0 && wrong.every((f) => f.summary.includes('PROGRESSIVE')),
      wrong.map((f) => f.summary).join('\n'),
    );
    for (const f of wrong) {
      assert.ok(f.interpretations.includes('J15'), f.summary);
      assert.ok(
        f.citations.some((c) => c.key === '89/2025 art.17 n.3'),
        f.summary,
      );
    }
    const rounds = replayTable(renumber(malfunction(true, withProgressive())), {
      ...DEFAULT_REPLAY_OPTIONS,
      alternatives: ['J15'],
    }).rounds;
    assert.deepEqual(rounds[0]!.carryOverDue, [
      { seat: 1, amount: 5_000 },
      { seat: 5, amount: 5_000 },
    ]);
  });

  it('J15: the deal goes on with no reshuffle, or the round is voided at once — agree that the first is a breach and the second is not', () => {
    const t = given(malfunction(false), 'J15').then(
      ['F3CP.IRREG.SHUFFLER_NOT_SUSPENDED'],
      ['F3CP.IRREG.SHUFFLER_NOT_SUSPENDED'],
    );
    const f = t.alt('F3CP.IRREG.SHUFFLER_NOT_SUSPENDED');
    assert.ok(f.interpretations.includes('J15'));
    assert.ok(f.citations.some((c) => c.key === '89/2025 art.17 n.2'));
    // with Progressive bets and no reshuffle the table did not pause: the same findings (nothing carried over)
    given(malfunction(false, withProgressive()), 'J15').then(
      ['F3CP.IRREG.SHUFFLER_NOT_SUSPENDED'],
      ['F3CP.IRREG.SHUFFLER_NOT_SUSPENDED'],
    );
    const table = new TableBuilder();
    table.voidedRound(THREE_HANDS, { reason: 'SHUFFLER_MALFUNCTION', cards: 4, malfunction: true });
    table.round(THREE_HANDS);
    given(table.close(), 'J15').then([], []).thenAgree();
  });
});

describe('procedure alternatives of the 2008 rules: Given a table’s events, When replayed under both readings, Then …', () => {
  /** A CardExposed during the deal of the card with this deal order. */
  const exposeCard = (events: F3cpEvent[], n: number): F3cpEvent[] => {
    const d = first(events, 'CardDealt', (x) => x.dealOrder === n);
    return insertAfter(
      events,
      dealt(n),
      eventLike(d, 'CardExposed', { card: d.card, target: d.target, seat: d.seat, duringDeal: true }),
    );
  };

  it('H6: a croupier card exposed during the deal, the round played on — chosen: nothing; alternative: F3CP08.IRREG.NOT_VOIDED', () => {
    const t = given(exposeCard(threeHands2008(), 11), 'H6').then([], ['F3CP08.IRREG.NOT_VOIDED']);
    const f = t.alt('F3CP08.IRREG.NOT_VOIDED');
    assert.ok(f.interpretations.includes('H6'));
    assert.ok(
      f.citations.some((c) => c.key === '78/2008 art.11 al.2'),
      JSON.stringify(f.citations),
    );
  });

  it('H6: a croupier card exposed and the round voided — chosen: F3CP08.IRREG.WRONGLY_VOIDED; alternative: nothing', () => {
    const events = voidRound(exposeCard(threeHands2008(), 11), { reason: 'BANKER_CARD_EXPOSED' });
    given(events, 'H6').then(['F3CP08.IRREG.WRONGLY_VOIDED'], []);
  });

  it('H6: two player cards exposed (no croupier card), the round played on — agree', () => {
    given(exposeCard(exposeCard(threeHands2008(), 2), 5), 'H6')
      .then([], [])
      .thenAgree();
  });
});
