import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { seededRng } from '../../src/rng.ts';
import {
  cleanThirteenRound,
  judgeThirteenRound,
  THIRTEEN_CARDS_1989 as rules,
  THIRTEEN_CHECKS as C,
  withCorrectSettlements,
  type ThirteenRound,
} from '../../src/thirteen/index.ts';

/** Given a correct round, when one thing changes, then the check finds it (or, at the boundary, does not). */
const rng = seededRng(51);
let n = 0;
const given = (): ThirteenRound =>
  cleanThirteenRound(rng, rules, { roundId: `g${++n}`, tableId: 'T13-02', start: Date.UTC(2026, 1, 2, 3) });
const found = (r: ThirteenRound, id: string): string[] =>
  judgeThirteenRound(r, rules)
    .findings.filter((f) => f.check.id === id)
    .map((f) => f.summary);
const yes = (r: ThirteenRound, id: string) => assert.notDeepEqual(found(r, id), [], `${id} should be found`);
const no = (r: ThirteenRound, id: string) => assert.deepEqual(found(r, id), []);
const place = (r: ThirteenRound) => r.bets[0]!.place;
const withPlace = (r: ThirteenRound, p: number, change: object): ThirteenRound => ({
  ...r,
  places: r.places.map((x) => (x.place === p ? { ...x, ...change } : x)),
});

describe(C.dealStartPlace.id, () => {
  it('Given dice summing 6 (place 1 under T3), When the first card goes to place 2, Then it is found', () => {
    const r = given();
    const deal = r.deal.map((d, i) => ({ ...d, place: (2 + i) % 4 }));
    yes({ ...r, dice: { ...r.dice, sum: 6 }, deal }, C.dealStartPlace.id);
  });
  it('Given dice summing 24, When the first card goes to place 3, Then nothing is found', () => {
    const r = given();
    no(
      { ...r, dice: { ...r.dice, sum: 24 }, deal: r.deal.map((d, i) => ({ ...d, place: (3 + i) % 4 })) },
      C.dealStartPlace.id,
    );
  });
});

describe(C.dealCount.id, () => {
  it('When the deal stops one card short, Then it is found', () =>
    yes({ ...given(), deal: given().deal.slice(0, 51) }, C.dealCount.id));
  it('When all 52 cards are dealt, 13 to each place, Then nothing is found', () =>
    no(given(), C.dealCount.id));
});

describe(C.dealOrder.id, () => {
  it('When two cards go to the same place in a row, Then it is found', () => {
    const r = given();
    const deal = r.deal.map((d, i) => (i === 9 ? { ...d, place: r.deal[8]!.place } : d));
    yes({ ...r, deal }, C.dealOrder.id);
  });
  it('When a card recorded as misdealt went to the wrong place, Then art. 2.º b) leaves it to art. 4.º', () => {
    const r = given();
    const deal = r.deal.map((d, i) =>
      i === 9 ? { ...d, place: (d.place + 1) % 4, misdealCorrectedTo: d.place } : d,
    );
    no({ ...r, deal }, C.dealOrder.id);
  });
});

describe(C.misdealMishandled.id, () => {
  it('When a misdealt card is given to a place other than its own, Then it is found', () => {
    const r = given();
    const deal = r.deal.map((d, i) => (i === 9 ? { ...d, misdealCorrectedTo: (d.place + 1) % 4 } : d));
    yes({ ...r, deal }, C.misdealMishandled.id);
  });
  it('When a cancelled deal is not cut again, Then it is found', () => {
    const r = given();
    const c = {
      eventId: 'x',
      time: r.dice.time + 1,
      reshuffledByBanker: true,
      reshuffledByMachine: true,
      cut: null,
    };
    yes({ ...r, cancelledDeals: [c] }, C.misdealMishandled.id);
  });
  it('When the misdealt card goes to its own place and a cancelled deal is reshuffled twice and cut, Then nothing is found', () => {
    const r = given();
    const deal = r.deal.map((d, i) =>
      i === 9 ? { ...d, place: (d.place + 1) % 4, misdealCorrectedTo: d.place } : d,
    );
    const cut = { eventId: 'c', time: r.dice.time + 2, cards: 10 };
    const c = {
      eventId: 'x',
      time: r.dice.time + 1,
      reshuffledByBanker: true,
      reshuffledByMachine: true,
      cut,
    };
    no({ ...r, deal, cancelledDeals: [c] }, C.misdealMishandled.id);
  });
});

describe(C.cutTooFew.id, () => {
  it('When the cut takes 9 cards, Then it is found', () =>
    yes({ ...given(), cut: { eventId: 'c', time: 1, cards: 9 } }, C.cutTooFew.id));
  it('When the cut takes exactly 10 cards, Then nothing is found', () =>
    no({ ...given(), cut: { eventId: 'c', time: 1, cards: 10 } }, C.cutTooFew.id));
});

describe(C.betAfterDice.id, () => {
  it('When a bet is accepted 1 ms after the dice, Then it is found', () => {
    const r = given();
    yes(
      { ...r, bets: r.bets.map((b, i) => (i === 0 ? { ...b, time: r.dice.time + 1 } : b)) },
      C.betAfterDice.id,
    );
  });
  it('When a bet is withdrawn after the dice, Then it is found', () => {
    const r = given();
    const w = {
      eventId: 'w',
      time: r.dice.time + 1,
      betId: r.bets[0]!.betId,
      kind: 'withdrawn' as const,
      toPlace: null,
    };
    yes({ ...r, betChanges: [w] }, C.betAfterDice.id);
  });
  it('When a bet is withdrawn before the dice, Then nothing is found', () => {
    const r = given();
    const w = {
      eventId: 'w',
      time: r.dice.time - 1,
      betId: r.bets[0]!.betId,
      kind: 'withdrawn' as const,
      toPlace: null,
    };
    no(withCorrectSettlements({ ...r, betChanges: [w] }, rules, r.signal!.time + 1), C.betAfterDice.id);
  });
});

describe(C.betTransferred.id, () => {
  it('When a bet is moved to another place after the dice, Then it is found', () => {
    const r = given();
    const m = {
      eventId: 'm',
      time: r.dice.time + 1,
      betId: r.bets[0]!.betId,
      kind: 'moved' as const,
      toPlace: 3,
    };
    yes({ ...r, betChanges: [m] }, C.betTransferred.id);
  });
  it('When it is moved before the dice, Then nothing is found', () => {
    const r = given();
    const m = {
      eventId: 'm',
      time: r.dice.time - 1,
      betId: r.bets[0]!.betId,
      kind: 'moved' as const,
      toPlace: 3,
    };
    no({ ...r, betChanges: [m] }, C.betTransferred.id);
  });
});

/** a round where the first bet's place fouled (middle and back swapped) */
function fouled(): ThirteenRound {
  for (;;) {
    const r = given();
    const p = r.places.find((x) => x.place === place(r))!;
    const a = p.arranged!.arrangement;
    const swapped = {
      ...r,
      places: r.places.map((x) =>
        x === p
          ? {
              ...x,
              arranged: { ...p.arranged!, arrangement: { front: a.front, middle: a.back, back: a.middle } },
            }
          : x,
      ),
    };
    const j = judgeThirteenRound(swapped, rules).settled.bets.find((b) => b.bet.place === place(r))!;
    if (j.scored.reason === 'place-foul') return swapped;
  }
}

describe(C.foulNotPenalised.id, () => {
  it('When a fouled place’s bet is settled as a tie, Then it is found', () => {
    const r = fouled();
    const ids = new Set(r.bets.filter((b) => b.place === place(r)).map((b) => b.betId));
    yes(
      {
        ...r,
        settlements: r.settlements.map((s) => (ids.has(s.betId) ? { ...s, outcome: 'tie', net: 0 } : s)),
      },
      C.foulNotPenalised.id,
    );
  });
  it('When the fouled place’s bets are lost, Then nothing is found', () => {
    const r = fouled();
    no(withCorrectSettlements(r, rules, r.signal!.time + 1), C.foulNotPenalised.id);
  });
});

describe(C.timeExceededNotPenalised.id, () => {
  const late = (dt: number) => {
    const r = given();
    const p = r.places.find((x) => x.place === place(r))!;
    return withPlace(r, p.place, {
      arranged: { ...p.arranged!, time: r.bankerShown[0]!.time + 5 * 60_000 + dt },
    });
  };
  it('When a place finishes 1 ms after the five minutes and its bet is settled as a tie, Then it is found', () => {
    const r = late(1);
    yes(
      {
        ...r,
        settlements: r.settlements.map((s) =>
          s.betId === r.bets[0]!.betId ? { ...s, outcome: 'tie', net: 0 } : s,
        ),
      },
      C.timeExceededNotPenalised.id,
    );
  });
  it('When it finishes exactly at the five minutes, Then nothing is found', () =>
    no(late(0), C.timeExceededNotPenalised.id));
  it('When the late place’s bets are lost, Then nothing is found', () => {
    const r = late(1);
    no(withCorrectSettlements(r, rules, r.signal!.time + 1), C.timeExceededNotPenalised.id);
  });
});

describe(C.playerBeforeBanker.id, () => {
  it('When a player takes the cards 1 s before the banker shows, Then it is found', () => {
    const r = given();
    yes(
      withPlace(r, place(r), { cardsTakenAt: { eventId: 't', time: r.bankerShown[0]!.time - 1_000 } }),
      C.playerBeforeBanker.id,
    );
  });
  it('When the player takes them as the banker shows, Then nothing is found', () => {
    const r = given();
    no(
      withPlace(r, place(r), { cardsTakenAt: { eventId: 't', time: r.bankerShown[0]!.time } }),
      C.playerBeforeBanker.id,
    );
  });
});

describe(C.payoutMismatch.id, () => {
  it('When a bet is settled one avo off, Then it is found', () => {
    const r = given();
    yes(
      { ...r, settlements: r.settlements.map((s, i) => (i === 0 ? { ...s, net: s.net + 1 } : s)) },
      C.payoutMismatch.id,
    );
  });
  it('When a bet is never settled, Then it is found', () => {
    const r = given();
    yes({ ...r, settlements: r.settlements.slice(1) }, C.payoutMismatch.id);
  });
  it('When every bet is settled as art. 8.º–11.º give it, Then nothing is found', () =>
    no(given(), C.payoutMismatch.id));
});

describe(C.placeChanged.id, () => {
  const obs = (r: ThirteenRound) => ({
    eventId: 'o',
    time: r.dice.time + 1,
    kind: 'place-changed' as const,
    playerId: 'p1',
    place: 2,
  });
  it('When a player is seen changing place mid-round, Then it is found', () => {
    const r = given();
    yes({ ...r, observations: [obs(r)] }, C.placeChanged.id);
  });
  it('When nobody changes place, Then nothing is found', () => no(given(), C.placeChanged.id));
});

describe(C.cardsOffTable.id, () => {
  it('When a player holds another place’s cards, Then it is found', () => {
    const r = given();
    yes(
      {
        ...r,
        observations: [
          { eventId: 'o', time: r.dice.time + 1, kind: 'other-place-cards', playerId: 'p1', place: 3 },
        ],
      },
      C.cardsOffTable.id,
    );
  });
  it('When a player changes place (a different breach), Then this check finds nothing', () => {
    const r = given();
    no(
      {
        ...r,
        observations: [
          { eventId: 'o', time: r.dice.time + 1, kind: 'place-changed', playerId: 'p1', place: 3 },
        ],
      },
      C.cardsOffTable.id,
    );
  });
});

describe(C.wrongHolder.id, () => {
  const two = (): ThirteenRound => {
    for (;;) {
      const r = given();
      if (r.bets.filter((b) => b.place === 1).length >= 2) return r;
    }
  };
  it('When the lower seated bettor holds the cards, Then it is found', () => {
    const r = two();
    const low = r.bets.filter((b) => b.place === 1).reduce((a, b) => (b.amount < a.amount ? b : a));
    yes(withPlace(r, 1, { holderPlayerId: low.playerId }), C.wrongHolder.id);
  });
  it('When the highest bettor is not seated, the highest seated bettor holds, Then nothing is found', () => {
    const r = two();
    const onPlace = r.bets.filter((b) => b.place === 1);
    const top = onPlace.reduce((a, b) => (b.amount > a.amount ? b : a));
    const seatedTop = onPlace.filter((b) => b !== top).reduce((a, b) => (b.amount > a.amount ? b : a));
    const bets = r.bets.map((b) => (b === top ? { ...b, seated: false } : b));
    no(withPlace({ ...r, bets }, 1, { holderPlayerId: seatedTop.playerId }), C.wrongHolder.id);
  });
});
