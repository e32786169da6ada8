import { cite } from '../../citations/citation.ts';
import { defineCheck, type FindingInput } from '../../findings.ts';
import { CARDS_PER_PLACE, firstPlace, PLACES } from '../deal.ts';
import { THIRTEEN_CARDS_1989_DIPLOMA as D, type ThirteenRuleSet } from '../rule-set.ts';
import { cardsByPlace, type ThirteenRound } from '../round.ts';
import { ev } from './evidence.ts';

/** Art. 2.º a)–c) and 4.º: the cut, the dice, the deal and misdealt cards. */

export const dealStartPlace = defineCheck(
  'THIRTEEN.DEAL.START_PLACE',
  'first card not dealt to the place the dice sum gives',
  'high',
  [cite(D, 2, { alinea: 2 }), cite(D, 2, { alinea: 3 })],
  ['T3'],
);
export const dealCount = defineCheck(
  'THIRTEEN.DEAL.COUNT',
  'a place without 13 cards, or not all four places dealt',
  'high',
  [cite(D, 2, { alinea: 2 }), cite(D, 2, { alinea: 3 })],
);
export const dealOrder = defineCheck(
  'THIRTEEN.DEAL.ORDER',
  'cards not dealt one at a time counter-clockwise',
  'high',
  [cite(D, 2, { alinea: 2 })],
  ['T3'],
);
export const misdealMishandled = defineCheck(
  'THIRTEEN.DEAL.MISDEAL_MISHANDLED',
  'misdealt cards not given to the right place, or a cancelled deal not reshuffled and cut',
  'high',
  [cite(D, 4)],
);
export const cutTooFew = defineCheck(
  'THIRTEEN.CUT.TOO_FEW_CARDS',
  'a cut of fewer than ten cards',
  'medium',
  [cite(D, 2, { alinea: 1 })],
);

/**
 * Art. 2.º b): the dice sum, counted from the banker counter-clockwise, gives the place of the first card (T3; under
 * its alternative reading, `rules.alternatives` holding 'T3', the count starts at the place after the banker).
 */
export function checkStartPlace(r: ThirteenRound, rules?: ThirteenRuleSet): FindingInput[] {
  const first = r.deal[0];
  if (!first) return [];
  const expected = firstPlace(r.dice.sum, rules?.alternatives);
  if (first.place === expected) return [];
  return [
    {
      check: dealStartPlace,
      summary: `dice sum ${r.dice.sum}: the first card should go to place ${expected}; it went to place ${first.place}`,
      expected: { firstPlace: expected },
      declared: { firstPlace: first.place },
      evidence: ev(r.dice, first),
    },
  ];
}

/** Art. 2.º b)–c): 13 cards to each of the four places, whatever the number of players. */
export function checkDealCount(r: ThirteenRound): FindingInput[] {
  if (r.deal.length === 0) return [];
  const counts = cardsByPlace(r.deal).map((c) => c.length);
  if (counts.length === PLACES && counts.every((n) => n === CARDS_PER_PLACE)) return [];
  return [
    {
      check: dealCount,
      summary: `cards per place ${counts.join('/')}; each of the four places gets ${CARDS_PER_PLACE}`,
      expected: { cardsPerPlace: [13, 13, 13, 13] },
      declared: { cardsPerPlace: counts },
      evidence: ev(...r.deal.slice(-1)),
    },
  ];
}

/**
 * Art. 2.º b): one card at a time, counter-clockwise, from the first place dealt. A card the table recorded as
 * misdealt is judged by art. 4.º (checkMisdeal), not here.
 */
export function checkDealOrder(r: ThirteenRound): FindingInput[] {
  const first = r.deal[0];
  if (!first) return [];
  const wrong = r.deal
    .map((d, i) => ({ d, i, expected: (first.place + i) % PLACES }))
    .filter((x) => x.d.misdealCorrectedTo === undefined && x.d.place !== x.expected);
  if (wrong.length === 0) return [];
  const w = wrong[0]!;
  return [
    {
      check: dealOrder,
      summary: `${wrong.length} card(s) out of counter-clockwise order; card ${w.i + 1} went to place ${w.d.place}, its turn was place ${w.expected}`,
      expected: { place: w.expected, card: w.i + 1 },
      declared: { place: w.d.place, outOfOrder: wrong.length },
      evidence: ev(...wrong.map((x) => x.d)),
    },
  ];
}

/**
 * Art. 4.º: a misdealt card, once noticed, goes to the place the normal order gives it; a deal that cannot be put
 * right is cancelled and the deck shuffled by the banker, then by the machine, and cut with the blank card.
 */
export function checkMisdeal(r: ThirteenRound, rules: ThirteenRuleSet): FindingInput[] {
  const out: FindingInput[] = [];
  const first = r.deal[0];
  r.deal.forEach((d, i) => {
    if (d.misdealCorrectedTo === undefined || !first) return;
    const expected = (first.place + i) % PLACES;
    if (d.misdealCorrectedTo === expected) return;
    out.push({
      check: misdealMishandled,
      discriminator: `card ${i + 1}`,
      summary: `misdealt card ${i + 1} (dealt to place ${d.place}) given to ${d.misdealCorrectedTo === null ? 'no place' : `place ${d.misdealCorrectedTo}`}; the normal order gives place ${expected}`,
      expected: { place: expected },
      declared: { place: d.misdealCorrectedTo },
      evidence: ev(d),
    });
  });
  r.cancelledDeals.forEach((c, i) => {
    const missing = [
      c.reshuffledByBanker ? null : 'shuffled by the banker',
      c.reshuffledByMachine ? null : 'shuffled by the machine',
      c.cut ? null : 'cut with the blank card',
    ].filter((x): x is string => x !== null);
    if (c.cut && c.cut.cards < rules.minCutCards) missing.push(`cut of at least ${rules.minCutCards} cards`);
    if (missing.length === 0) return;
    out.push({
      check: misdealMishandled,
      discriminator: `cancelled ${i}`,
      summary: `deal cancelled, then the deck was not ${missing.join(', ')}`,
      expected: { reshuffledByBanker: true, reshuffledByMachine: true, cut: true },
      declared: {
        reshuffledByBanker: c.reshuffledByBanker,
        reshuffledByMachine: c.reshuffledByMachine,
        cut: c.cut,
      },
      evidence: ev(c, ...(c.cut ? [c.cut] : [])),
    });
  });
  return out;
}

/** Art. 2.º a): each cut takes at least ten cards. */
export function checkCut(r: ThirteenRound, rules: ThirteenRuleSet): FindingInput[] {
  if (!r.cut || r.cut.cards >= rules.minCutCards) return [];
  return [
    {
      check: cutTooFew,
      summary: `cut of ${r.cut.cards} cards; art. 2.º a) requires at least ${rules.minCutCards}`,
      expected: { minimum: rules.minCutCards },
      declared: { cards: r.cut.cards },
      evidence: ev(r.cut),
    },
  ];
}
