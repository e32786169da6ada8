import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { seededRng } from '../../src/rng.ts';
import {
  cardsNatural,
  cleanThirteenRound,
  explainThirteenRound,
  THIRTEEN_CARDS_1989,
  dealOrder,
  DEFAULT_THIRTEEN_PAYOUT,
  firstPlace,
  judgeArrangement,
  scorePlace,
  settleBet,
  tierClassName,
  tierKey,
  tierPoints,
} from '../../src/thirteen/index.ts';
import { cards } from '../helpers.ts';

const key = (t: string) => tierKey(cards(t));
const arr = (front: string, middle: string, back: string) =>
  judgeArrangement({ front: cards(front), middle: cards(middle), back: cards(back) });

describe('13 Cards formations (Portaria 51/89/M art. 6.º, 9.º II)', () => {
  it('names the classes of the law', () => {
    assert.equal(tierClassName(key('Ah Kh Qh Jh Th')), 'royal-flush');
    assert.equal(tierClassName(key('5h 4h 3h 2h Ah')), 'straight-flush');
    assert.equal(tierClassName(key('9c 9d 9h 9s 2c')), 'four-of-a-kind');
    assert.equal(tierClassName(key('8c 8d 8h 5s 5c')), 'full-house');
    assert.equal(tierClassName(key('Tc 9c 8c 7c 5c')), 'flush');
    assert.equal(tierClassName(key('6c 7d 8h 9s Tc')), 'straight');
    assert.equal(tierClassName(key('Kc Kd Kh 6s 5c')), 'three-of-a-kind');
    assert.equal(tierClassName(key('Tc Td 6h 6s 5c')), 'two-pairs');
    assert.equal(tierClassName(key('Tc Td 9h 7s 6c')), 'pair');
    assert.equal(tierClassName(key('Ac Td 7h 6s 5c')), 'high-card');
    assert.equal(tierClassName(key('Ac Ad Ah')), 'three-of-a-kind');
    // T5: three suited or consecutive cards in front rank by their cards
    assert.equal(tierClassName(key('Qc Kc Ac')), 'high-card');
  });

  it('art. 9.º II 6.: A-K-Q-J-10 is the highest straight, A-2-3-4-5 the second, then K-Q-J-10-9', () => {
    assert.ok(key('Ac Kd Qh Js Tc') > key('Ac 2d 3h 4s 5c'));
    assert.ok(key('Ac 2d 3h 4s 5c') > key('Kc Qd Jh Ts 9c'));
    assert.ok(key('6c 5d 4h 3s 2c') < key('7c 6d 5h 4s 3c'));
  });

  it('art. 9.º II 1.–2.: the royal flush beats A-2-3-4-5 suited, the highest straight flush, which beats K-Q-J-10-9', () => {
    assert.ok(key('Ah Kh Qh Jh Th') > key('As 2s 3s 4s 5s'));
    assert.ok(key('As 2s 3s 4s 5s') > key('Kd Qd Jd Td 9d'));
  });

  it('art. 9.º II 3., 4., 7.: fours, full houses and trios rank by the four or the trio alone', () => {
    assert.equal(key('8c 8d 8h 2s 2c'), key('8c 8d 8h Ks Kc'));
    assert.equal(key('Kc Kd Kh 2s 3c'), key('Kc Kd Kh Qs Jc'));
    assert.ok(key('9c 9d 9h 2s 2c') > key('8c 8d 8h As Ac'));
  });

  it('art. 9.º II 8.–10.: pairs and high cards card by card', () => {
    assert.ok(key('Tc Td 6h 6s 5c') > key('Tc Td 5h 5s Ac'));
    assert.ok(key('Tc Td 6h 6s 5c') > key('Th Ts 6c 6d 4c'));
    assert.ok(key('Tc Td 9h 7s 6c') > key('Th Ts 9c 7d 5c'));
    assert.ok(key('Ac Td 7h 6s 5c') > key('Ad Tc 7s 6h 4c'));
  });

  it('art. 9.º II: the points per tier', () => {
    assert.equal(tierPoints(key('Ah Kh Qh Jh Th'), 1), 10);
    assert.equal(tierPoints(key('Ah Kh Qh Jh Th'), 2), 5);
    assert.equal(tierPoints(key('9c 9d 9h 9s 2c'), 1), 8);
    assert.equal(tierPoints(key('9c 9d 9h 9s 2c'), 2), 4);
    assert.equal(tierPoints(key('8c 8d 8h 5s 5c'), 1), 2);
    assert.equal(tierPoints(key('8c 8d 8h 5s 5c'), 2), 1);
    assert.equal(tierPoints(key('Ac Ad Ah'), 0), 3);
    assert.equal(tierPoints(key('Kc Kd Kh 6s 5c'), 1), 1);
    assert.equal(tierPoints(key('Ac Ad 2h'), 0), 1);
  });
});

describe('13 Cards tiers, naturals, scoring (art. 7.º, 8.º, 9.º I, 10.º; T1, T4, T6)', () => {
  it('art. 7.º: a front stronger than the middle is a foul; equal-looking tiers are not (T4)', () => {
    assert.equal(arr('Ac Ad 2h', 'Kc Kd 3h 4s 5c', 'Qc Qd Qh 6s 7c').foul, true);
    assert.equal(arr('Ac Kd Qh', 'As Ks Qd 9s 5c', 'Qc Qs Th 6s 7c').foul, false);
    assert.equal(arr('2c 3d 4h', 'Ac Ad 3h 4s 5c', 'Kc Kd 8h 7s 6c').foul, true);
  });

  it('art. 9.º I: dragon, six pairs and a half (a four counts as two pairs), three flushes, three straights', () => {
    assert.equal(cardsNatural(cards('Ac 2d 3h 4s 5c 6d 7h 8s 9c Td Jh Qs Kc')), 'dragon');
    assert.equal(cardsNatural(cards('2c 2d 2h 2s 5c 5d 7h 7s 9c 9d Jh Js Kc')), 'six-pairs-and-a-half');
    assert.equal(arr('2c 5c 9c', '3d 7d 8d Td 9d', '4h 6h Jh Kh Ah').natural, 'three-flushes');
    assert.equal(arr('Ac 2d 3h', '4c 5d 6h 7s 8c', '9d Th Js Qc Kd').natural, 'dragon');
    assert.equal(arr('Ac 2d 3h', '5c 6d 7h 8s 9c', '9d Th Js Qc Kd').natural, 'three-straights');
    // T6: a fouled arrangement shows no natural
    assert.equal(arr('4h 6h Qh', '3d 7d 8d Td Ad', '2c 5c 9c Jc Kc').foul, true);
    assert.equal(arr('4h 6h Qh', '3d 7d 8d Td Ad', '2c 5c 9c Jc Kc').natural, null);
  });

  it('T1: each tier won scores its own formation’s points; art. 10.º: an equal tier goes to the banker', () => {
    const banker = arr('Kc Qd 2h', 'Jc Jd 5h 4s 3c', '8c 8d 8h 6s 2d');
    const place = arr('Ac Kd 7h', 'Jh Js 5c 4d 3s', '9c 9d 9h 9s 2c');
    const s = scorePlace(place, banker);
    assert.deepEqual(
      s.tiers.map((t) => [t.winner, t.points, t.bankerByEquality]),
      [
        ['place', 1, false],
        ['banker', 1, true],
        ['place', 4, false],
      ],
    );
    assert.equal(s.outcome, 'win');
    assert.equal(s.placePoints, 5);
    assert.equal(s.bankerPoints, 1);
  });

  it('a natural beats any other hand for 3 points; two naturals tie; a foul or a late place loses', () => {
    const natural = arr('2c 5c 9c', '3d 7d 8d Td 9d', '4h 6h Jh Kh Ah');
    const plain = arr('Kc Qs 2h', 'Jc Js 5h 4s 3c', '8c 8s 8h 6s 2d');
    assert.equal(scorePlace(natural, plain).outcome, 'win');
    assert.equal(scorePlace(plain, natural).outcome, 'lose');
    assert.equal(scorePlace(natural, natural).outcome, 'tie');
    const foul = arr('Ac Ad 2h', 'Kc Kd 3h 4s 5c', 'Qc Qd Qh 6s 7c');
    assert.equal(scorePlace(foul, plain).reason, 'place-foul');
    assert.equal(scorePlace(natural, plain, { late: true }).reason, 'place-late');
    assert.equal(scorePlace(plain, foul).reason, 'banker-foul');
  });
});

describe('13 Cards payment (art. 11.º, T2)', () => {
  it('a win pays half the stake less 2% of that half; a loss loses the stake; a tie returns it', () => {
    assert.deepEqual(settleBet('win', 100_000, 1, DEFAULT_THIRTEEN_PAYOUT), {
      outcome: 'win',
      atRisk: 100_000,
      commission: 1_000,
      net: 49_000,
    });
    assert.equal(settleBet('lose', 100_000, 2, DEFAULT_THIRTEEN_PAYOUT).net, -100_000);
    assert.equal(settleBet('tie', 100_000, 3, DEFAULT_THIRTEEN_PAYOUT).net, 0);
  });

  it('the table may read the units as a stake per point and take the commission on the stake', () => {
    const s = settleBet('win', 10_000, 3, {
      units: 'stake-per-point',
      commissionBase: 'stake',
      commissionPercent: 2,
    });
    assert.deepEqual(s, { outcome: 'win', atRisk: 30_000, commission: 600, net: 14_400 });
  });

  it('rounds the half down to whole avos and the commission half up', () => {
    assert.deepEqual(settleBet('win', 101, 1, DEFAULT_THIRTEEN_PAYOUT), {
      outcome: 'win',
      atRisk: 101,
      commission: 1,
      net: 49,
    });
  });

  it('refuses units other than 1, 2, 3 and amounts that are not whole avos', () => {
    assert.throws(() => settleBet('win', 100, 4, DEFAULT_THIRTEEN_PAYOUT), /1, 2 or 3/);
    assert.throws(() => settleBet('win', 10.5, 1, DEFAULT_THIRTEEN_PAYOUT), /whole number of avos/);
  });
});

describe('13 Cards deal (art. 2.º b), T3)', () => {
  it('counts the dice sum from the banker as one, counter-clockwise', () => {
    assert.equal(firstPlace(5), 0);
    assert.equal(firstPlace(6), 1);
    assert.equal(firstPlace(4), 3);
    assert.equal(firstPlace(24), 3);
    assert.throws(() => firstPlace(3), /4\.\.24/);
  });

  it('deals one card at a time counter-clockwise, 13 to every place', () => {
    const order = dealOrder(6);
    assert.deepEqual(order.slice(0, 6), [1, 2, 3, 0, 1, 2]);
    for (let p = 0; p < 4; p++) assert.equal(order.filter((x) => x === p).length, 13);
  });
});

describe('13 Cards disputed-hand explanation', () => {
  it('shows each place’s arrangement beside the best one, and each bet expected beside declared', () => {
    const r = cleanThirteenRound(seededRng(3), THIRTEEN_CARDS_1989, {
      roundId: 'd1',
      tableId: 'T',
      start: Date.UTC(2026, 0, 1),
    });
    const e = explainThirteenRound(r, THIRTEEN_CARDS_1989);
    assert.match(e.text, /Macau time/);
    assert.match(e.text, /best legal arrangement: .* \(margin -?\d+; played -?\d+\)/);
    for (const b of r.bets) assert.match(e.text, new RegExp(`bet ${b.betId} .* expected .* declared`));
    // a correct table plays the solver's arrangement: the margins agree
    for (const p of (
      e.json as {
        places: { result: { placePoints: number; bankerPoints: number }; best: { margin: number } }[];
      }
    ).places)
      assert.equal(p.result.placePoints - p.result.bankerPoints, p.best.margin);
  });

  it('Given a deal where a place holds a card the banker shows too, Then the explanation says why no best arrangement is worked out, and does not fail', () => {
    const r = cleanThirteenRound(seededRng(3), THIRTEEN_CARDS_1989, {
      roundId: 'd2',
      tableId: 'T',
      start: Date.UTC(2026, 0, 1),
    });
    const bankerCard = r.bankerShown[0]!.arrangement.front[0]!;
    let replaced = false;
    // place 1's first card dealt becomes a card of the banker's: an impossible deal
    const deal = r.deal.map((d) => {
      if (replaced || (d.misdealCorrectedTo ?? d.place) !== 1) return d;
      replaced = true;
      return { ...d, card: bankerCard };
    });
    const e = explainThirteenRound({ ...r, deal }, THIRTEEN_CARDS_1989);
    assert.match(
      e.text,
      /place 1 .*\n {2}.*[\s\S]*best legal arrangement: not worked out — cards .* are both in the hand and the banker's/,
    );
    const places = (e.json as { places: { place: number; best: unknown; bestNotWorkedOut?: string }[] })
      .places;
    assert.equal(places.find((p) => p.place === 1)!.best, null);
    assert.match(places.find((p) => p.place === 1)!.bestNotWorkedOut!, /both in the hand and the banker's/);
    assert.ok(
      places.filter((p) => p.place !== 1).every((p) => p.best !== null && p.bestNotWorkedOut === undefined),
    );
  });
});
