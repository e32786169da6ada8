import { evidenceOf, type Evidence, type FindingInput } from '../../findings.ts';
import type { JudgedRound } from '../round.ts';
import { F3CP08 } from './f3cp08-definitions.ts';

/**
 * Art. 11.º of 78/2008: irregularities. Unlike 89/2025 art. 17.º, only a broken deal (1)) or a shuffler
 * malfunction during the deal (4)) invalidates a round; an exposed card, even the croupier's (2), H6), and cards
 * dealt to a hand with no bet (3)) let it go on.
 */

/**
 * What makes a 2008 round invalid, as the events show it: art. 11.º 1) and 4); under H6's alternative also 2), a
 * croupier card exposed during the deal (shown by accident, or dealt face up).
 */
export function invalidatingConditions2008(r: JudgedRound): InvalidatingCondition2008[] {
  const out: InvalidatingCondition2008[] = [];
  if (r.deal.countProblems.length || r.deal.orderBroken)
    out.push({
      what: 'the deal broke art. 7.º (order or number of cards)',
      evidence: r.view.dealt.map(evidenceOf),
    });
  if (r.malfunctionDuringDeal)
    out.push({
      what: `shuffler ${r.malfunctionDuringDeal.event.shufflerId} failed during the deal`,
      evidence: [evidenceOf(r.malfunctionDuringDeal.event)],
    });
  if (r.ruleSet.alternatives.length && r.ruleSet.alternatives.includes('H6')) {
    const croupier = croupierCardsExposed(r);
    if (croupier.length)
      out.push({
        what: `${croupier.length} croupier card(s) exposed during the deal (H6 alternative: the exception of art. 11.º 2) invalidates the round)`,
        evidence: croupier,
        alinea: 2,
      });
  }
  return out;
}

export interface InvalidatingCondition2008 {
  readonly what: string;
  readonly evidence: Evidence[];
  /** the alínea of art. 11.º beyond 1) that the condition rests on (2: H6's alternative) */
  readonly alinea?: number;
}

/** The croupier's cards exposed during the deal: a CardExposed, or a card dealt face up. */
function croupierCardsExposed(r: JudgedRound): Evidence[] {
  const v = r.view;
  return [
    ...v.exposures.filter((x) => x.duringDeal && x.target === 'BANKER').map(evidenceOf),
    ...v.dealt.filter((d) => d.faceUp && d.target === 'BANKER').map(evidenceOf),
  ];
}

/** Art. 11.º 1) and 4): a round with a dealing irregularity or a shuffler malfunction is invalid, not settled. */
export function checkNotVoided2008(r: JudgedRound): FindingInput[] {
  if (r.voided) return [];
  const conditions = invalidatingConditions2008(r);
  if (!conditions.length) return [];
  const last = r.view.events[r.view.events.length - 1]!.data;
  return [
    {
      check: F3CP08.irregNotVoided,
      summary: `${conditions.map((c) => c.what).join('; ')}, yet the round was ${r.view.settled ? 'settled' : 'played on'}`,
      expected: 'round invalid, bets void and returned, new bets and new cards',
      declared: r.view.settled ? 'round settled' : 'round not voided',
      extraCitations: [
        ...(r.malfunctionDuringDeal ? [{ diploma: '78/2008', article: 11, alinea: 4 }] : []),
        ...(conditions.some((c) => c.alinea === 2) ? [{ diploma: '78/2008', article: 11, alinea: 2 }] : []),
      ],
      ...(conditions.some((c) => c.alinea === 2) ? { extraInterpretations: ['H6'] } : {}),
      evidence: [...conditions.flatMap((c) => c.evidence), evidenceOf(last)],
    },
  ];
}

/** Art. 11.º 2)–3): exposed cards (the croupier's too) and cards dealt to a hand with no bet do not void a round. */
export function checkWronglyVoided2008(r: JudgedRound): FindingInput[] {
  const v = r.view;
  if (!v.voided || invalidatingConditions2008(r).length) return [];
  const exposed = v.exposures.filter((x) => x.duringDeal);
  const faceUp = v.dealt.filter((d) => d.faceUp);
  const croupier = exposed.some((x) => x.target === 'BANKER') || faceUp.some((d) => d.target === 'BANKER');
  const only = [
    exposed.length + faceUp.length
      ? `${exposed.length + faceUp.length} exposed card(s)${croupier ? ", the croupier's among them" : ''}`
      : '',
    r.cards.voidSeatCards.length ? 'cards dealt to a hand with no bet' : '',
  ].filter(Boolean);
  return [
    {
      check: F3CP08.irregWronglyVoided,
      summary: only.length
        ? `voided for ${only.join(' and ')}, which art. 11.º 2)-3) of 78/2008 let the round survive`
        : `voided (${v.voided.reason}) with no irregularity of art. 11.º 1) or 4) in the events`,
      expected: 'round continues',
      declared: { voided: v.voided.reason },
      evidence: [
        evidenceOf(v.voided),
        ...exposed.map(evidenceOf),
        ...faceUp.map(evidenceOf),
        ...r.cards.voidSeatCards.map(evidenceOf),
      ],
    },
  ];
}

/**
 * Art. 11.º 4): after a shuffler malfunction during the deal, the shuffler is replaced or a shoe is used. A round
 * dealt by the shuffler after one failure, with neither, is the finding (under 2025 only a second failure bars
 * play). Decided by the table fold, which sees the failures between rounds.
 */
export function checkShufflerNotReplaced(
  failuresSinceReplacement: number,
  failures: readonly Evidence[],
  roundStarted: Evidence,
): FindingInput[] {
  if (failuresSinceReplacement < 1) return [];
  return [
    {
      check: F3CP08.irregShufflerNotReplaced,
      summary: `round dealt by the shuffler after ${failuresSinceReplacement} malfunction(s), with neither a new shuffler nor a shoe`,
      expected: 'the shuffler replaced, or a shoe used',
      declared: { failuresSinceReplacement },
      evidence: [...failures, roundStarted],
    },
  ];
}
