import { cite } from '../../citations/citation.ts';
import { defineCheck, evidenceOf, type FindingInput } from '../../findings.ts';
import { F3CP_2025_DIPLOMA as D } from '../rule-set.ts';
import type { JudgedRound } from '../round.ts';

/** Art. 2.º n.º 1 1): the game is played with one 52-card deck, so no card twice and no card outside it. */
export const cardsIntegrity = defineCheck(
  'F3CP.CARDS.INTEGRITY',
  'a card seen twice in one deck, or a card that is not in the deck',
  'critical',
  [cite(D, 2, { numero: 1, alinea: 1 })],
);

export function checkCardsIntegrity(r: JudgedRound): FindingInput[] {
  const { badCards, duplicates } = r.cards;
  if (!badCards.length && !duplicates.length) return [];
  return [
    {
      check: cardsIntegrity,
      summary: [
        badCards.length
          ? `not cards of a 52-card deck: ${badCards.map((d) => JSON.stringify(d.card)).join(', ')}`
          : '',
        duplicates.length ? `dealt twice from one deck: ${duplicates.map((d) => d.card).join(', ')}` : '',
      ]
        .filter(Boolean)
        .join('; '),
      declared: [...badCards, ...duplicates].map((d) => ({
        card: d.card,
        target: d.target,
        seat: d.seat,
        dealOrder: d.dealOrder,
      })),
      evidence: [...badCards, ...duplicates].map(evidenceOf),
    },
  ];
}
