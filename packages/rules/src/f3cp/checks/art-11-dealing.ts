import { cite } from '../../citations/citation.ts';
import { defineCheck, evidenceOf, type FindingInput } from '../../findings.ts';
import { targetName } from '../events.ts';
import { F3CP_2025_DIPLOMA as D } from '../rule-set.ts';
import type { JudgedRound } from '../round.ts';

/**
 * Art. 11.º: the deal. A breach of n.º 1–3 makes the round invalid (art. 17.º n.º 1 1)); when the table then
 * voids the round, as it must, the breach is still recorded, at low severity and marked handled (J19).
 */

export const dealOrder = defineCheck('F3CP.DEAL.ORDER', 'cards dealt out of the prescribed order', 'medium', [
  cite(D, 11, { numero: 1 }),
  cite(D, 11, { numero: 2 }),
]);

export const dealCount = defineCheck(
  'F3CP.DEAL.COUNT',
  'a hand did not receive exactly three cards',
  'medium',
  [cite(D, 11, { numero: 1 }), cite(D, 11, { numero: 2 })],
);

export const dealCommunity = defineCheck('F3CP.DEAL.COMMUNITY', 'community cards dealt wrongly', 'medium', [
  cite(D, 11, { numero: 3 }),
  cite(D, 11, { numero: 4 }),
]);

export const dealFaceUp = defineCheck('F3CP.DEAL.FACE_UP', 'a card was dealt face up', 'medium', [
  cite(D, 11, { numero: 5 }),
]);

const dealEvidence = (r: JudgedRound) => r.view.dealt.map(evidenceOf);

export function checkDealCount(r: JudgedRound): FindingInput[] {
  const problems = r.deal.countProblems;
  if (!problems.length) return [];
  return [
    {
      check: dealCount,
      handled: r.voided,
      summary: `wrong number of cards: ${problems.map(([w, k]) => `${w} ${k}`).join(', ')}${r.voided ? '; the round was voided (art. 17.º n.º 1 1))' : ''}`,
      expected: 3,
      declared: Object.fromEntries(problems),
      evidence: dealEvidence(r),
    },
  ];
}

/**
 * J17's alternative: art. 11.º n.º 3 read as allowing community cards only "na existência de apostas no Jackpot
 * Progressivo", so dealing them in a round with no Progressive bet breaks it (and voids the round, art. 17.º
 * n.º 1 1)). Under the register's reading (art. 15.º n.º 2 presupposes them on the table) it is allowed.
 */
export const communityDealtWithoutBets = (r: JudgedRound): boolean =>
  !r.anyProgressive &&
  r.deal.community > 0 &&
  r.ruleSet.alternatives.length > 0 &&
  r.ruleSet.alternatives.includes('J17');

export function checkDealCommunity(r: JudgedRound): FindingInput[] {
  const d = r.deal;
  if (communityDealtWithoutBets(r)) return checkDealCommunityWithoutBets(r);
  if (!d.communityProblem) return [];
  return [
    {
      check: dealCommunity,
      handled: r.voided,
      summary: `with Progressive bets: ${d.community} community and ${d.discards} discarded cards (expected 2 and at most ${d.discardAllowed})${r.voided ? '; the round was voided (art. 17.º n.º 1 1))' : ''}`,
      expected: { community: 2, discardAtMost: d.discardAllowed },
      declared: { community: d.community, discards: d.discards },
      evidence: dealEvidence(r),
    },
  ];
}

/** Art. 11.º n.º 3 under J17's alternative: no community card in a round with no Progressive bet. */
export function checkDealCommunityWithoutBets(r: JudgedRound): FindingInput[] {
  const d = r.deal;
  return [
    {
      check: dealCommunity,
      handled: r.voided,
      summary: `${d.community} community card(s) dealt with no Progressive bet (J17 alternative: art. 11.º n.º 3 deals them only when there are Progressive bets)${r.voided ? '; the round was voided (art. 17.º n.º 1 1))' : ''}`,
      expected: { community: 0 },
      declared: { community: d.community, discards: d.discards },
      extraInterpretations: ['J17'],
      evidence: r.view.dealt.filter((x) => x.target === 'COMMUNITY').map(evidenceOf),
    },
  ];
}

export function checkDealOrder(r: JudgedRound): FindingInput[] {
  const d = r.deal;
  if (!d.orderBroken) return [];
  const how =
    d.mode === 'SHOE'
      ? 'from the shoe, one at a time left to right, then the banker'
      : 'from the shuffler, three at a time left to right, then the banker';
  return [
    {
      check: dealOrder,
      handled: r.voided,
      summary: `cards dealt ${d.actual.map(targetName).join(' ')}; ${how}: ${d.expected.map(targetName).join(' ')}${r.voided ? '; the round was voided (art. 17.º n.º 1 1))' : ''}`,
      expected: d.expected.map(targetName),
      declared: d.actual.map(targetName),
      evidence: dealEvidence(r),
    },
  ];
}

/**
 * Art. 11.º n.º 5: cards are dealt face down. A face-up card is also an exposure for art. 17.º (J18), so a round
 * voided for it handled the breach; under J18's alternative it is not, and the face-up card is never handled.
 */
export function checkDealFaceUp(r: JudgedRound): FindingInput[] {
  const notExposure = r.ruleSet.alternatives.length > 0 && r.ruleSet.alternatives.includes('J18');
  return r.view.dealt
    .filter((d) => d.faceUp)
    .map((d) => ({
      check: dealFaceUp,
      handled: r.voided && !notExposure,
      ...(notExposure ? { extraInterpretations: ['J18'] } : {}),
      discriminator: String(d.dealOrder),
      seats: d.seat ? [d.seat] : [],
      summary: `card ${d.dealOrder} (${d.target}${d.seat ? ` ${d.seat}` : ''}) dealt face up`,
      declared: { card: d.card, target: d.target, seat: d.seat },
      evidence: [evidenceOf(d)],
    }));
}
