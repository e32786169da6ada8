import { shuffledDeck, type Rng } from '../rng.ts';
import { judgeArrangement, type Arrangement } from './arrangement.ts';
import { ALL_THIRTEEN_CHECK_IDS, THIRTEEN_CHECKS as C } from './checks/index.ts';
import { firstPlace, PLACES } from './deal.ts';
import type { ThirteenRuleSet } from './rule-set.ts';
import type { BetFact, BetSettled, PlaceFacts, ThirteenRound } from './round.ts';
import { settleThirteenRound } from './settle.ts';
import { settleBet } from './score.ts';
import { arrangeAlone, bestArrangementAgainst } from './solver.ts';

/**
 * Labelled 13 Cards rounds at the level of facts: a correct table (dice, counter-clockwise deal, the banker
 * arranging and showing first, every place arranging like a sensible player with the solver within the five
 * minutes, art. 11.º settlement), and each fault kind as a change to such a round with the check ids that must
 * find it. sim-events.ts plays these rounds as ta.thirteen.* events for the simulator service.
 */
export interface ThirteenSimOptions {
  readonly roundId: string;
  readonly tableId: string;
  /** UTC ms when the round starts */
  readonly start: number;
}

const MOP = 100;

export function cleanThirteenRound(rng: Rng, rules: ThirteenRuleSet, o: ThirteenSimOptions): ThirteenRound {
  let t = o.start;
  let n = 0;
  const id = (what: string): string => `${o.roundId}:${what}:${n++}`;
  const at = (dt: number): number => (t += dt);
  const cut = { eventId: id('cut'), time: at(5_000), cards: 10 + rng.int(31) };
  // bets: two to five bettors on places 1..3, each with a different amount so the holder is clear (art. 5.º)
  const bets: BetFact[] = [];
  const players = ['p1', 'p2', 'p3', 'p4', 'p5'].slice(0, 2 + rng.int(4));
  players.forEach((playerId, i) => {
    const place = 1 + (i % 3);
    bets.push({
      eventId: id('bet'),
      time: at(2_000),
      betId: `${o.roundId}-b${i}`,
      place,
      playerId,
      amount: (100 + 100 * i + 50 * rng.int(4)) * MOP,
      units: 1 + rng.int(3),
      seated: true,
    });
  });
  const highest = bets.reduce((a, b) => (b.amount > a.amount ? b : a));
  const sum = 4 + rng.int(6) + rng.int(6) + rng.int(6) + rng.int(6);
  const dice = { eventId: id('dice'), time: at(10_000), sum, shakerPlayerId: highest.playerId };
  const deck = shuffledDeck(rng);
  const first = firstPlace(sum);
  const deal = deck.map((card, i) => ({
    eventId: id('card'),
    time: at(700),
    card,
    place: (first + i) % PLACES,
    faceUp: false,
  }));
  const hands: number[][] = [[], [], [], []];
  for (const d of deal) hands[d.place]!.push(d.card);
  const banker = arrangeAlone(hands[0]!);
  const bankerShown = [{ eventId: id('banker-shows'), time: at(60_000), arrangement: banker.arrangement }];
  const shownAt = bankerShown[0]!.time;
  const places: PlaceFacts[] = [0, 1, 2, 3].map((place) => {
    if (place === 0)
      return { place, holderPlayerId: null, cardsTakenAt: null, arranged: { ...bankerShown[0]! } };
    const onPlace = bets.filter((b) => b.place === place);
    const holder = onPlace.length ? onPlace.reduce((a, b) => (b.amount > a.amount ? b : a)).playerId : null;
    return {
      place,
      holderPlayerId: holder,
      cardsTakenAt: { eventId: id(`take-${place}`), time: shownAt + 3_000 + 1_000 * place },
      arranged: {
        eventId: id(`arranged-${place}`),
        time: shownAt + 20_000 + rng.int(200_000),
        arrangement: bestArrangementAgainst(hands[place]!, banker.judged).arrangement,
      },
    };
  });
  const signal = { eventId: id('signal'), time: shownAt + rules.arrangeMinutes * 60_000 };
  const round: ThirteenRound = {
    roundId: o.roundId,
    tableId: o.tableId,
    cut,
    dice,
    deal,
    cancelledDeals: [],
    bets,
    betChanges: [],
    bankerShown,
    places,
    signal,
    observations: [],
    settlements: [],
  };
  return withCorrectSettlements(round, rules, signal.time + 10_000);
}

/** The round with each bet settled as the rules give it (what a correct table declares). */
export function withCorrectSettlements(
  r: ThirteenRound,
  rules: ThirteenRuleSet,
  time: number,
): ThirteenRound {
  const settled = settleThirteenRound(r, rules);
  const settlements: BetSettled[] = settled.bets.map((x, i) => ({
    eventId: `${r.roundId}:settled:${i}`,
    time: time + i,
    betId: x.bet.betId,
    outcome: x.settlement.outcome,
    net: x.settlement.net,
  }));
  return { ...r, settlements };
}

export interface ThirteenFault {
  readonly name: string;
  readonly checkIds: readonly string[];
  /** the faulty round made from a clean one; null when this round cannot show the fault */
  apply(r: ThirteenRound, rng: Rng, rules: ThirteenRuleSet): ThirteenRound | null;
}

const setPlace = (r: ThirteenRound, place: number, change: (p: PlaceFacts) => PlaceFacts): ThirteenRound => ({
  ...r,
  places: r.places.map((p) => (p.place === place ? change(p) : p)),
});
const betPlaces = (r: ThirteenRound): number[] => [...new Set(r.bets.map((b) => b.place))].sort();

export const THIRTEEN_FAULTS: readonly ThirteenFault[] = [
  {
    name: 'first card to the wrong place',
    checkIds: [C.dealStartPlace.id],
    apply: (r) => {
      // a sum one higher: the table dealt as if the count started one place later
      const sum = r.dice.sum < 24 ? r.dice.sum + 1 : r.dice.sum - 1;
      return { ...r, dice: { ...r.dice, sum } };
    },
  },
  {
    name: 'a place dealt 12 cards',
    checkIds: [C.dealCount.id],
    apply: (r) => ({ ...r, deal: r.deal.slice(0, -1) }),
  },
  {
    name: 'two cards dealt out of turn',
    checkIds: [C.dealOrder.id],
    apply: (r, rng) => {
      const i = 4 + 4 * rng.int(10);
      const deal = [...r.deal];
      const a = deal[i]!;
      const b = deal[i + 1]!;
      deal[i] = { ...a, place: b.place };
      deal[i + 1] = { ...b, place: a.place };
      return { ...r, deal };
    },
  },
  {
    name: 'cancelled deal not reshuffled by the machine',
    checkIds: [C.misdealMishandled.id],
    apply: (r) => ({
      ...r,
      cancelledDeals: [
        {
          eventId: `${r.roundId}:cancelled`,
          time: r.dice.time + 5_000,
          reshuffledByBanker: true,
          reshuffledByMachine: false,
          cut: { eventId: `${r.roundId}:recut`, time: r.dice.time + 9_000, cards: 20 },
        },
      ],
    }),
  },
  {
    name: 'misdealt card given to the wrong place',
    checkIds: [C.misdealMishandled.id],
    apply: (r) => {
      // card 9 went to the next place; noticed and given to the place after that, not its own
      const deal = [...r.deal];
      const d = deal[8]!;
      deal[8] = { ...d, place: (d.place + 1) % 4, misdealCorrectedTo: (d.place + 2) % 4 };
      // and a later card of that place given to card 9's place, so every place still has 13
      const c = deal.findIndex((x, k) => k > 9 && x.place === (d.place + 2) % 4);
      deal[c] = { ...deal[c]!, misdealCorrectedTo: d.place };
      return { ...r, deal };
    },
  },
  {
    name: 'cut of fewer than ten cards',
    checkIds: [C.cutTooFew.id],
    apply: (r, rng) => ({ ...r, cut: { ...r.cut!, cards: 1 + rng.int(9) } }),
  },
  {
    name: 'bet accepted after the dice',
    checkIds: [C.betAfterDice.id],
    apply: (r) => {
      const [b, ...rest] = r.bets;
      return { ...r, bets: [...rest, { ...b!, time: r.dice.time + 1_500 }] };
    },
  },
  {
    name: 'bet withdrawn after the dice',
    checkIds: [C.betAfterDice.id],
    apply: (r) => {
      const b = r.bets[0]!;
      return {
        ...r,
        betChanges: [
          {
            eventId: `${r.roundId}:withdrawn`,
            time: r.dice.time + 2_000,
            betId: b.betId,
            kind: 'withdrawn',
            toPlace: null,
          },
        ],
        settlements: r.settlements.filter((s) => s.betId !== b.betId),
      };
    },
  },
  {
    name: 'bet moved to another place after the dice',
    checkIds: [C.betTransferred.id],
    apply: (r) => {
      const b = r.bets[0]!;
      return {
        ...r,
        betChanges: [
          {
            eventId: `${r.roundId}:moved`,
            time: r.dice.time + 2_000,
            betId: b.betId,
            kind: 'moved',
            toPlace: (b.place % 3) + 1,
          },
        ],
      };
    },
  },
  {
    name: 'foul hand paid as a win',
    checkIds: [C.foulNotPenalised.id],
    apply: (r, _rng, rules) => {
      for (const place of betPlaces(r)) {
        const p = r.places.find((x) => x.place === place)!;
        const a = p.arranged!.arrangement;
        const swapped: Arrangement = { front: a.front, middle: a.back, back: a.middle };
        if (!judgeArrangement(swapped).foul) continue;
        const faulty = setPlace(r, place, (x) => ({
          ...x,
          arranged: { ...x.arranged!, arrangement: swapped },
        }));
        const onPlace = new Set(r.bets.filter((b) => b.place === place).map((b) => b.betId));
        return {
          ...faulty,
          settlements: faulty.settlements.map((s) => {
            if (!onPlace.has(s.betId)) return s;
            const bet = r.bets.find((b) => b.betId === s.betId)!;
            return { ...s, outcome: 'win', net: settleBet('win', bet.amount, bet.units, rules.payout).net };
          }),
        };
      }
      return null;
    },
  },
  {
    name: 'late place not made to lose',
    checkIds: [C.timeExceededNotPenalised.id],
    apply: (r) => {
      const place = betPlaces(r)[0]!;
      const faulty = setPlace(r, place, (x) => ({
        ...x,
        arranged: { ...x.arranged!, time: r.signal!.time + 40_000 },
      }));
      const onPlace = new Set(r.bets.filter((b) => b.place === place).map((b) => b.betId));
      // the table settled the place as if in time; where that was a loss anyway it called it a tie
      return {
        ...faulty,
        settlements: faulty.settlements.map((s) =>
          onPlace.has(s.betId) && s.outcome === 'lose' ? { ...s, outcome: 'tie', net: 0 } : s,
        ),
      };
    },
  },
  {
    name: 'player looked at the cards before the banker showed',
    checkIds: [C.playerBeforeBanker.id],
    apply: (r) =>
      setPlace(r, betPlaces(r)[0]!, (x) => ({
        ...x,
        cardsTakenAt: { ...x.cardsTakenAt!, time: r.bankerShown[0]!.time - 25_000 },
      })),
  },
  {
    name: 'win paid without the commission',
    checkIds: [C.payoutMismatch.id],
    apply: (r) => {
      const won = r.settlements.find((s) => s.outcome === 'win');
      const target = won ?? r.settlements[0]!;
      return {
        ...r,
        settlements: r.settlements.map((s) =>
          s === target
            ? { ...s, net: s.outcome === 'win' ? s.net + Math.max(1, Math.round(s.net / 49)) : s.net - 100 }
            : s,
        ),
      };
    },
  },
  {
    name: 'player changed place mid-round',
    checkIds: [C.placeChanged.id],
    apply: (r) => ({
      ...r,
      observations: [
        {
          eventId: `${r.roundId}:obs-place`,
          time: r.dice.time + 30_000,
          kind: 'place-changed',
          playerId: r.bets[0]!.playerId,
          place: (r.bets[0]!.place % 3) + 1,
        },
      ],
    }),
  },
  {
    name: 'cards held off the table',
    checkIds: [C.cardsOffTable.id],
    apply: (r) => ({
      ...r,
      observations: [
        {
          eventId: `${r.roundId}:obs-off`,
          time: r.bankerShown[0]!.time + 15_000,
          kind: 'cards-off-table',
          playerId: r.bets[0]!.playerId,
          place: r.bets[0]!.place,
        },
      ],
    }),
  },
  {
    name: 'cards held by a lower bettor',
    checkIds: [C.wrongHolder.id],
    apply: (r) => {
      for (const place of betPlaces(r)) {
        const onPlace = r.bets.filter((b) => b.place === place);
        if (onPlace.length < 2) continue;
        const low = onPlace.reduce((a, b) => (b.amount < a.amount ? b : a));
        return setPlace(r, place, (x) => ({ ...x, holderPlayerId: low.playerId }));
      }
      return null;
    },
  },
];

/** Irregularities handled as the law says: negative controls that must raise nothing. */
export const THIRTEEN_HANDLED: readonly {
  name: string;
  apply(r: ThirteenRound, rules: ThirteenRuleSet): ThirteenRound;
}[] = [
  {
    name: 'card turned face up during the deal (valid, art. 4.º)',
    apply: (r) => ({ ...r, deal: r.deal.map((d, i) => (i === 6 ? { ...d, faceUp: true } : d)) }),
  },
  {
    name: 'misdealt card given to the place the normal order gives it (art. 4.º)',
    apply: (r) => ({
      ...r,
      deal: r.deal.map((d, i) =>
        i === 11 ? { ...d, place: (d.place + 1) % 4, misdealCorrectedTo: d.place } : d,
      ),
    }),
  },
  {
    name: 'cancelled deal reshuffled by banker and machine and cut again (art. 4.º)',
    apply: (r) => ({
      ...r,
      cancelledDeals: [
        {
          eventId: `${r.roundId}:cancelled`,
          time: r.dice.time + 5_000,
          reshuffledByBanker: true,
          reshuffledByMachine: true,
          cut: { eventId: `${r.roundId}:recut`, time: r.dice.time + 9_000, cards: 18 },
        },
      ],
    }),
  },
  {
    name: 'bet withdrawn before the dice',
    apply: (r, rules) => {
      const b = r.bets.at(-1)!;
      const round: ThirteenRound = {
        ...r,
        betChanges: [
          {
            eventId: `${r.roundId}:withdrawn`,
            time: r.dice.time - 1_000,
            betId: b.betId,
            kind: 'withdrawn',
            toPlace: null,
          },
        ],
      };
      return withCorrectSettlements(round, rules, r.signal!.time + 10_000);
    },
  },
];

export { ALL_THIRTEEN_CHECK_IDS };
