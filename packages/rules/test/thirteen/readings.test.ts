/**
 * The 13 Cards alternative readings (T1–T6; readings.ts), each as Given / When / Then: given a round's facts, when
 * it is settled and judged under the register's reading and under the alternative, then the two differ where the
 * reading matters and agree where it does not.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { seededRng } from '../../src/rng.ts';
import {
  cleanThirteenRound,
  firstPlace,
  judgeThirteenRound,
  settleThirteenRound,
  THIRTEEN_CARDS_1989,
  THIRTEEN_CHECKS as C,
  thirteenReadings,
  type Arrangement,
  type ThirteenRound,
  type ThirteenRuleSet,
} from '../../src/thirteen/index.ts';
import { cards } from '../helpers.ts';

const rules: ThirteenRuleSet = THIRTEEN_CARDS_1989;
const rng = seededRng(1989);
let n = 0;
const clean = (): ThirteenRound =>
  cleanThirteenRound(rng, rules, { roundId: `r${++n}`, tableId: 'T13-09', start: Date.UTC(2026, 2, 3, 4) });

const arr = (front: string, middle: string, back: string): Arrangement => ({
  front: cards(front),
  middle: cards(middle),
  back: cards(back),
});

/** A round where the banker shows `banker` and place 1 arranges `place` in time, with one bet of MOP 100 × units. */
function round(banker: Arrangement, place: Arrangement, units = 1): ThirteenRound {
  const r = clean();
  const shown = { eventId: 'banker-shows', time: r.dice.time + 60_000, arrangement: banker };
  return {
    ...r,
    bankerShown: [shown],
    places: r.places.map((p) =>
      p.place === 1
        ? {
            ...p,
            cardsTakenAt: { eventId: 'taken', time: shown.time + 1_000 },
            arranged: { eventId: 'arranged', time: shown.time + 60_000, arrangement: place },
          }
        : p,
    ),
    bets: [
      {
        eventId: 'bet',
        time: r.dice.time - 1_000,
        betId: 'b1',
        place: 1,
        playerId: 'p1',
        amount: 10_000,
        units,
        seated: true,
      },
    ],
    betChanges: [],
    settlements: [],
  };
}

/** Given a round, When settled under the register's reading and under alternative `key`. */
function given(r: ThirteenRound, key: string) {
  const chosen = settleThirteenRound(r, rules);
  const alternative = settleThirteenRound(r, thirteenReadings(rules, [key]));
  const money = (s: typeof chosen) => [
    ...s.bets.map(
      (b) => `${b.bet.betId} ${b.settlement.outcome} ${b.settlement.net} ${b.settlement.commission}`,
    ),
    ...s.notSettled,
  ];
  return {
    chosen: chosen.bets[0],
    alternative: alternative.bets[0],
    alternativeNotSettled: alternative.notSettled,
    thenDiffer() {
      assert.notDeepEqual(money(alternative), money(chosen), `${key} should change the settlement`);
      return this;
    },
    thenAgree() {
      assert.deepEqual(money(alternative), money(chosen), `${key} should change nothing here`);
      return this;
    },
  };
}

// place: a trio in front (3 points), trios behind it; banker: high card in front, full houses behind (2 + 1)
const TRIOS = arr('2c 2d 2h', '3c 3d 3h 9s Tc', '4c 4d 4h Js Qc');
const FULL_HOUSES = arr('Ac Kd Jh', '5c 5d 5h 6s 6c', '7c 7d 7h 8s 8c');
// place stronger in every tier; banker weaker in every tier
const STRONG = arr('9c 9d 9h', 'Tc Td Th 2s 3c', 'Jc Jd Jh Js 4c');
const WEAK = arr('2c 3d 5h', '4d 4h 6s 7c 8d', '6c 6d Ks Qd 2d');

describe('13 Cards alternatives: Given a round, When settled under both readings, Then …', () => {
  it('T1: a front trio (3) against two full houses (2 + 1) — chosen: a tie, 3 to 3; alternative: one point a tier, 1 to 2, lost', () => {
    const g = given(round(FULL_HOUSES, TRIOS), 'T1').thenDiffer();
    assert.equal(g.chosen!.scored.outcome, 'tie');
    assert.equal(g.alternative!.scored.outcome, 'lose');
    assert.deepEqual([g.alternative!.scored.placePoints, g.alternative!.scored.bankerPoints], [1, 2]);
  });
  it('T1: a place that wins every tier — agree', () => {
    given(round(WEAK, STRONG), 'T1').thenAgree();
  });

  it('T1 (second alternative): the same tie — both formations count in every tier, 5 to 4, won', () => {
    const g = given(round(FULL_HOUSES, TRIOS), 'T1:2').thenDiffer();
    assert.equal(g.alternative!.scored.outcome, 'win');
    assert.deepEqual([g.alternative!.scored.placePoints, g.alternative!.scored.bankerPoints], [5, 4]);
  });
  it('T1 (second alternative): a place that wins every tier — agree', () => {
    given(round(WEAK, STRONG), 'T1:2').thenAgree();
  });

  it('T2: a 3-unit bet won by 8 points — chosen: half the stake less 2% of the win; alternative: 3 × the stake at risk, 2% of it taken', () => {
    const g = given(round(WEAK, STRONG, 3), 'T2').thenDiffer();
    assert.deepEqual([g.chosen!.settlement.net, g.chosen!.settlement.commission], [4_900, 100]);
    assert.deepEqual(
      [g.alternative!.settlement.atRisk, g.alternative!.settlement.net, g.alternative!.settlement.commission],
      [30_000, 14_400, 600],
    );
  });
  it('T2: a 1-unit bet lost — agree (the stake is lost either way)', () => {
    given(round(STRONG, WEAK, 1), 'T2').thenAgree();
  });

  it('T3: dice summing 6, first card to place 1 — chosen: nothing; alternative: THIRTEEN.DEAL.START_PLACE (place 2)', () => {
    const r = clean();
    const deal = r.deal.map((d, i) => ({ ...d, place: (firstPlace(6) + i) % 4 }));
    const round6 = { ...r, dice: { ...r.dice, sum: 6 }, deal };
    const ids = (x: ThirteenRuleSet) =>
      judgeThirteenRound(round6, x)
        .findings.filter((f) => f.check.id === C.dealStartPlace.id)
        .map((f) => [f.summary, f.check.interpretations]);
    assert.deepEqual(ids(rules), []);
    const alt = ids(thirteenReadings(rules, ['T3']));
    assert.equal(alt.length, 1);
    assert.match(String(alt[0]![0]), /should go to place 2; it went to place 1/);
    assert.deepEqual(alt[0]![1], ['T3']);
    assert.equal(firstPlace(6, ['T3']), 2);
  });
  it('T3: the same round settled — agree (T3 decides who should get the first card, not what the hands are worth)', () => {
    given(round(WEAK, STRONG), 'T3').thenAgree();
  });

  it('T4: equal middle and back (two 10-high straights) — chosen: no foul, won; alternative: a foul, lost', () => {
    const place = arr('2c 3d 5h', '6c 7d 8h 9s Tc', '6d 7h 8s 9c Td');
    const banker = arr('2h 3c 4s', '4c 4d Jh Qs Kc', '5c 5d Jd Qh Ks');
    const g = given(round(banker, place), 'T4').thenDiffer();
    assert.equal(g.chosen!.scored.outcome, 'win');
    assert.equal(g.alternative!.scored.reason, 'place-foul');
  });
  it('T4: a back stronger than the middle — agree', () => {
    const place = arr('2c 3d 5h', '6c 7d 8h 9s Tc', '9c Td Jc Qc Kd');
    const banker = arr('2h 3c 4s', '4c 4d Jh Qs Kc', '5c 5d Jd Qh Ks');
    given(round(banker, place), 'T4').thenAgree();
  });

  it('T5: Q-K-A of clubs in front before a pair — chosen: a high card, won; alternative: a straight flush in front, a foul', () => {
    const place = arr('Qc Kc Ac', '2d 2h 5s 7c 9d', '3d 3h 3s 8c Td');
    const banker = arr('2c 4d 6h', '3c 4h 8d Jh Ks', '4c 4s 9h Jd 7h');
    const r = round(banker, place);
    const g = given(r, 'T5').thenDiffer();
    assert.equal(g.chosen!.scored.outcome, 'win');
    assert.equal(g.alternative!.scored.reason, 'place-foul');
    // the bet was never settled by the table: the finding judged on the settlement names the reading it used
    const payout = (x: ThirteenRuleSet) =>
      judgeThirteenRound(r, x).findings.find((f) => f.check.id === C.payoutMismatch.id)!;
    assert.equal(payout(rules).extraInterpretations, undefined);
    assert.deepEqual(payout(thirteenReadings(rules, ['T5'])).extraInterpretations, ['T5']);
  });
  it('T5: a front of mixed suits and no sequence — agree', () => {
    const place = arr('Ac Kd 9h', '2d 2h 5s 7c 9d', '3d 3h 3s 8c Td');
    const banker = arr('2c 4d 6h', '3c 4h 8d Jh Ks', '4c 4s 9h Jd 7h');
    given(round(banker, place), 'T5').thenAgree();
  });

  it('T6: six pairs and a half arranged with a foul — chosen: no natural, lost; alternative: the natural wins', () => {
    const place = arr('Ac Ad 2c', 'Kc Kd Qc Qd Jc', 'Jd Tc Td 9c 9d');
    const g = given(round(WEAK, place), 'T6').thenDiffer();
    assert.equal(g.chosen!.scored.reason, 'place-foul');
    assert.deepEqual([g.alternative!.scored.outcome, g.alternative!.scored.reason], ['win', 'natural']);
  });
  it('T6: a fouled banker without a natural — chosen: the place wins; alternative: not settled (the banker re-arranges)', () => {
    const fouledBanker = arr('Ac Ad 2c', '3c 4d 6h 8s Tc', '5c 5d 7h 9s Jc');
    const g = given(round(fouledBanker, STRONG), 'T6').thenDiffer();
    assert.equal(g.chosen!.scored.reason, 'banker-foul');
    assert.equal(g.alternative, undefined);
    assert.ok(g.alternativeNotSettled.some((w) => /re-arranges/.test(w)));
  });
  it('T6: no foul and no natural — agree', () => {
    given(round(WEAK, STRONG), 'T6').thenAgree();
  });

  it('the register’s readings: thirteenReadings with no 13 Cards key gives the same rule set', () => {
    assert.equal(thirteenReadings(rules, []), rules);
    assert.equal(thirteenReadings(rules, ['J2', 'C3', 'M1']), rules);
  });
});
