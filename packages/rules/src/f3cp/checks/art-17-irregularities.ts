import type { BetPlaced, CardDealt } from '@table-audit/schemas/events';
import { cite, type Citation } from '../../citations/citation.ts';
import { defineCheck, evidenceOf, type Evidence, type FindingInput } from '../../findings.ts';
import { formatMop } from '../../present.ts';
import { BET_TYPES, BET_FIELD, declaredKey } from '../events.ts';
import { F3CP_2025_DIPLOMA as D } from '../rule-set.ts';
import { reshuffledAfter, type JudgedRound } from '../round.ts';
import { communityDealtWithoutBets } from './art-11-dealing.ts';

/** Art. 17.º: irregularities. The point is how the table handled them, not that they happened. */

export const irregNotVoided = defineCheck(
  'F3CP.IRREG.NOT_VOIDED',
  'round with an art. 17.º n.º 1 irregularity settled instead of voided',
  'critical',
  [cite(D, 17, { numero: 1 })],
);

export const irregWronglyVoided = defineCheck(
  'F3CP.IRREG.WRONGLY_VOIDED',
  'round voided although the irregularity lets it go on',
  'high',
  [cite(D, 17, { numero: 4 }), cite(D, 17, { numero: 5 })],
);

export const irregBetsNotReturned = defineCheck(
  'F3CP.IRREG.BETS_NOT_RETURNED',
  'bets of a voided round collected instead of returned',
  'critical',
  [cite(D, 17, { numero: 1 })],
);

export const irregJackpotNotCarried = defineCheck(
  'F3CP.IRREG.JACKPOT_NOT_CARRIED',
  'Progressive bets of a voided round not carried to the next round',
  'high',
  [cite(D, 17, { numero: 3 })],
);

export const irregShufflerNotSuspended = defineCheck(
  'F3CP.IRREG.SHUFFLER_NOT_SUSPENDED',
  'round went on after a shuffler malfunction',
  'high',
  [cite(D, 17, { numero: 2 })],
  ['J15'],
);

export const irregPlayAfterSecondFailure = defineCheck(
  'F3CP.IRREG.PLAY_AFTER_SECOND_FAILURE',
  'new round after a second shuffler failure without a new shuffler or a shoe',
  'high',
  [cite(D, 17, { numero: 2 })],
  ['J15'],
);

export const irregVoidCardsUsed = defineCheck(
  'F3CP.IRREG.VOID_CARDS_USED',
  'cards dealt to a hand without bets were used',
  'high',
  [cite(D, 17, { numero: 4, alinea: 2 }), cite(D, 17, { numero: 5 })],
);

/** A condition of art. 17.º n.º 1 found in the round's events. */
export interface VoidingCondition {
  readonly what: string;
  readonly citation: Citation;
  readonly evidence: readonly Evidence[];
  readonly interpretations: readonly string[];
}

/**
 * The conditions of art. 17.º n.º 1 the events show: 1) the deal of art. 11.º n.º 1–3 broken; 2) a banker card
 * exposed during the deal; 3) more than one player card exposed. A card dealt face up is exposed (J18).
 */
export function voidingConditions(r: JudgedRound): VoidingCondition[] {
  const v = r.view;
  const faceUpExposes = !faceUpIsNoExposure(r);
  const exposed = (target: 'BANKER' | 'SEAT') => {
    const byCard = new Map<string, Evidence>();
    for (const x of v.exposures)
      if (x.duringDeal && x.target === target) byCard.set(`${x.card}:${x.seat}`, evidenceOf(x));
    let faceUp = false;
    if (faceUpExposes)
      for (const d of v.dealt)
        if (d.faceUp && d.target === target && !byCard.has(`${d.card}:${d.seat}`)) {
          byCard.set(`${d.card}:${d.seat}`, evidenceOf(d));
          faceUp = true;
        }
    return { evidence: [...byCard.values()], faceUp };
  };
  const banker = exposed('BANKER');
  const player = exposed('SEAT');
  const out: VoidingCondition[] = [];
  if (r.deal.rulesBroken)
    out.push({
      what: 'the dealing rules of art. 11.º n.º 1-3 were broken',
      citation: cite(D, 17, { numero: 1, alinea: 1 }),
      evidence: v.dealt.map(evidenceOf),
      interpretations: [],
    });
  else if (communityDealtWithoutBets(r))
    out.push({
      what: 'community cards were dealt with no Progressive bet (art. 11.º n.º 3, J17 alternative)',
      citation: cite(D, 17, { numero: 1, alinea: 1 }),
      evidence: v.dealt.filter((d) => d.target === 'COMMUNITY').map(evidenceOf),
      interpretations: ['J17'],
    });
  if (banker.evidence.length)
    out.push({
      what: `${banker.evidence.length} banker card(s) exposed during the deal${banker.faceUp ? ' (dealt face up)' : ''}`,
      citation: cite(D, 17, { numero: 1, alinea: 2 }),
      evidence: banker.evidence,
      interpretations: banker.faceUp ? ['J18'] : [],
    });
  if (player.evidence.length > 1)
    out.push({
      what: `${player.evidence.length} player cards exposed during the deal${player.faceUp ? ' (some dealt face up)' : ''}`,
      citation: cite(D, 17, { numero: 1, alinea: 3 }),
      evidence: player.evidence,
      interpretations: player.faceUp ? ['J18'] : [],
    });
  return out;
}

/**
 * J18's alternative: only a card exposed by accident after being dealt face down (CardExposed) is "exposta
 * inadvertidamente" under art. 17.º n.º 1 2)-3); a card dealt face up breaks art. 11.º n.º 5 alone, and the round
 * is settled.
 */
export const faceUpIsNoExposure = (r: JudgedRound): boolean =>
  r.ruleSet.alternatives.length > 0 && r.ruleSet.alternatives.includes('J18');

/** Art. 17.º n.º 1: a round with a condition of n.º 1 is invalid; settling it instead is the finding. */
export function checkNotVoided(r: JudgedRound): FindingInput[] {
  if (r.voided) return [];
  const conditions = voidingConditions(r);
  if (!conditions.length) return [];
  const last = r.view.events[r.view.events.length - 1]!.data;
  return [
    {
      check: irregNotVoided,
      summary: `${conditions.map((c) => c.what).join('; ')}, yet the round was ${r.view.settled ? 'settled' : 'played on'}`,
      expected: 'round voided, bets withdrawable',
      declared: r.view.settled ? 'round settled' : 'round not voided',
      extraCitations: conditions.map((c) => c.citation),
      extraInterpretations: conditions.flatMap((c) => c.interpretations),
      evidence: [...conditions.flatMap((c) => c.evidence), evidenceOf(last)],
    },
  ];
}

/** Art. 17.º n.º 4–5: one player card exposed, or cards to a hand without bets, let the round go on. */
export function checkWronglyVoided(r: JudgedRound): FindingInput[] {
  const v = r.view;
  if (!v.voided || r.malfunctionDuringDeal || voidingConditions(r).length) return [];
  const playerExposed = v.exposures.filter((x) => x.duringDeal && x.target === 'SEAT');
  const faceUp = faceUpIsNoExposure(r) ? v.dealt.filter((d) => d.faceUp) : [];
  const only = [
    playerExposed.length === 1 ? 'one player card exposed' : '',
    r.cards.voidSeatCards.length ? 'cards dealt to a hand without bets' : '',
    faceUp.length
      ? `${faceUp.length} card(s) dealt face up, a breach of art. 11.º n.º 5 only (J18 alternative)`
      : '',
  ].filter(Boolean);
  return [
    {
      check: irregWronglyVoided,
      summary: only.length
        ? `voided for ${only.join(' and ')}, which art. 17.º n.º 4 lets the round survive`
        : `voided (${v.voided.reason}) with no irregularity of art. 17.º n.º 1 or 2 in the events`,
      expected: 'round continues',
      declared: { voided: v.voided.reason },
      extraInterpretations: faceUp.length ? ['J18'] : [],
      evidence: [
        evidenceOf(v.voided),
        ...playerExposed.map(evidenceOf),
        ...r.cards.voidSeatCards.map(evidenceOf),
        ...faceUp.map(evidenceOf),
      ],
    },
  ];
}

/** Art. 17.º n.º 2 (J15): a malfunction during the deal ends the round at once; no card after it. */
export function checkShufflerSuspended(r: JudgedRound): FindingInput[] {
  const m = r.malfunctionDuringDeal;
  if (!m) return [];
  if (roundMayResume(r)) return checkShufflerPaused(r, m);
  const after = r.view.dealt.slice(m.dealtBefore);
  if (!after.length && r.voided) return [];
  const what = [
    after.length ? `${after.length} card(s) were dealt after it` : '',
    !r.voided ? 'the round was settled instead of ended' : '',
  ]
    .filter(Boolean)
    .join(' and ');
  return [
    {
      check: irregShufflerNotSuspended,
      summary: `shuffler ${m.event.shufflerId} failed during the deal; ${what}`,
      expected: 'round suspended at once, cards reshuffled',
      declared: { cardsAfterMalfunction: after.length, settled: !r.voided },
      evidence: [evidenceOf(m.event), ...after.map(evidenceOf)],
    },
  ];
}

/**
 * J15's alternative: art. 17.º n.º 2's "suspender" read as a pause: after a malfunction during the deal the round
 * waits while the cards are reshuffled, and then its deal goes on and it is settled.
 */
export const roundMayResume = (r: JudgedRound): boolean =>
  r.ruleSet.alternatives.length > 0 && r.ruleSet.alternatives.includes('J15');

/**
 * Art. 17.º n.º 2 under J15's alternative: the deal stops at once and goes on only after a reshuffle (a
 * ShuffleCompleted after the malfunction). A card dealt before the reshuffle is the finding, and so is a round
 * settled with no reshuffle after the malfunction; a round ended instead (voided) with no card after it is not.
 */
export function checkShufflerPaused(
  r: JudgedRound,
  m: NonNullable<JudgedRound['malfunctionDuringDeal']>,
): FindingInput[] {
  const events = r.view.events;
  let at = events.findIndex((e) => e.data === m.event);
  if (at < 0) at = 0;
  let reshuffled = false;
  const before: CardDealt[] = [];
  for (let i = at + 1; i < events.length && !reshuffled; i++) {
    const e = events[i]!;
    if (e.type === 'ShuffleCompleted') reshuffled = true;
    else if (e.type === 'CardDealt') before.push(e.data);
  }
  const settledUnshuffled = r.view.settled && !reshuffled;
  if (!before.length && !settledUnshuffled) return [];
  const what = [
    before.length ? `${before.length} card(s) were dealt after it before the cards were reshuffled` : '',
    settledUnshuffled ? 'the round was settled with no reshuffle after it' : '',
  ]
    .filter(Boolean)
    .join(' and ');
  return [
    {
      check: irregShufflerNotSuspended,
      summary: `shuffler ${m.event.shufflerId} failed during the deal; ${what} (J15 alternative: the round is paused, reshuffled and resumed)`,
      expected: 'deal paused at once, cards reshuffled, then resumed',
      declared: { cardsBeforeReshuffle: before.length, reshuffled, settled: r.view.settled },
      evidence: [evidenceOf(m.event), ...before.map(evidenceOf)],
    },
  ];
}

/** Art. 17.º n.º 4 2) and n.º 5: cards dealt to a hand without bets are void, never played. */
export function checkVoidCardsUsed(r: JudgedRound): FindingInput[] {
  const v = r.view;
  const { voidSeatCards, reusedVoidCards } = r.cards;
  const usedVoid = voidSeatCards.filter(
    (d) => v.outcome?.seats.some((s) => s.seat === d.seat) || v.decisions.has(d.seat!),
  );
  if (!reusedVoidCards.length && !usedVoid.length) return [];
  return [
    {
      check: irregVoidCardsUsed,
      seats: [
        ...new Set(
          [...usedVoid, ...reusedVoidCards].map((d) => d.seat).filter((s): s is number => s !== null),
        ),
      ],
      summary: reusedVoidCards.length
        ? `cards dealt to a hand without bets were dealt again: ${reusedVoidCards.map((d) => d.card).join(', ')}`
        : `the hand without bets at seat ${usedVoid[0]!.seat} was played or declared`,
      expected: 'cards of a hand without bets are void',
      declared: {
        reused: reusedVoidCards.map((d) => d.card),
        playedSeats: [...new Set(usedVoid.map((d) => d.seat))],
      },
      evidence: [...voidSeatCards, ...reusedVoidCards].map(evidenceOf),
    },
  ];
}

/** How one bet of a voided round must be handled, beside what the table declared. */
export interface VoidedBetHandling {
  readonly seat: number;
  readonly betType: string;
  readonly amount: number;
  readonly expected: 'returned' | 'carried-over';
  readonly declared: { payout: number; collected: number; returned: number; eventIds: readonly string[] };
  readonly correct: boolean;
  readonly citations: readonly Citation[];
}

/**
 * Whether the round's Progressive bets must move to the next round: after a broken deal (art. 17.º n.º 1 1)) or a
 * shuffler malfunction (n.º 2), art. 17.º n.º 3 carries them over; every other bet of a voided round is returned.
 */
export function carryOverRequired(r: JudgedRound): boolean {
  const reason = r.view.voided?.reason;
  return (
    (r.voided &&
      (r.deal.rulesBroken ||
        r.malfunctionDuringDeal !== undefined ||
        reason === 'DEALING_RULES_BROKEN' ||
        reason === 'SHUFFLER_MALFUNCTION')) ||
    resumedAfterMalfunction(r)
  );
}

/**
 * A round resumed after a shuffler malfunction (J15's alternative: not voided, the cards reshuffled after the
 * malfunction): n.º 3 still moves its Progressive bets to the next round ("em caso ... do número anterior"), so
 * they are not settled in it. A round dealt on with no reshuffle is judged as under the register's reading.
 */
export const resumedAfterMalfunction = (r: JudgedRound): boolean =>
  !r.voided &&
  r.malfunctionDuringDeal !== undefined &&
  roundMayResume(r) &&
  reshuffledAfter(r.view, r.malfunctionDuringDeal);

/** Every bet of a voided round: returned (art. 17.º n.º 1) or, for Progressive bets, carried over (n.º 3). */
export function voidedBetHandling(r: JudgedRound): VoidedBetHandling[] {
  if (!r.voided) return [];
  const carry = carryOverRequired(r);
  const out: VoidedBetHandling[] = [];
  for (const s of r.betSeats) {
    for (const type of BET_TYPES) {
      const amount = s[BET_FIELD[type]];
      if (amount <= 0) continue;
      const d = r.view.declared.get(declaredKey(s.seat, type)) ?? {
        payout: 0,
        collected: 0,
        returned: 0,
        eventIds: [],
      };
      const carried = type === 'PROGRESSIVE' && carry;
      out.push({
        seat: s.seat,
        betType: type,
        amount,
        expected: carried ? 'carried-over' : 'returned',
        declared: d,
        // a carried-over stake stays on the table: collected, paid or also returned, it is handled twice
        correct: carried
          ? d.collected === 0 && d.payout === 0 && d.returned === 0
          : d.returned === amount && d.collected === 0 && d.payout === 0,
        citations: carried
          ? [cite(D, 17, { numero: 3 })]
          : [cite(D, 17, { numero: 1 }), ...(r.malfunctionDuringDeal ? [cite(D, 17, { numero: 2 })] : [])],
      });
    }
  }
  return out;
}

/** Art. 17.º n.º 1 and 3: a voided round's bets may be withdrawn; its carried Progressive bets stay untouched. */
export function checkVoidedBets(r: JudgedRound): FindingInput[] {
  const wrong = voidedBetHandling(r).filter((b) => !b.correct);
  if (!wrong.length) return [];
  const describe = (b: VoidedBetHandling) => {
    const d = b.declared;
    const done = [
      d.returned ? `returned ${formatMop(d.returned)}` : '',
      d.collected ? `collected ${formatMop(d.collected)}` : '',
      d.payout ? `paid ${formatMop(d.payout)}` : '',
    ].filter(Boolean);
    return `seat ${b.seat} ${b.betType} of ${formatMop(b.amount)}: to be ${b.expected === 'returned' ? 'returned' : 'carried over to the next round'}, ${done.length ? done.join(', ') : 'nothing declared'}`;
  };
  return [
    {
      check: irregBetsNotReturned,
      seats: r.betSeats.map((b) => b.seat),
      summary: `the round was voided but ${wrong.map(describe).join('; ')}`,
      expected: wrong.map((b) => ({
        seat: b.seat,
        betType: b.betType,
        amount: b.amount,
        handling: b.expected,
      })),
      declared: wrong.map((b) => ({
        seat: b.seat,
        betType: b.betType,
        returned: b.declared.returned,
        collected: b.declared.collected,
        paid: b.declared.payout,
      })),
      extraCitations: wrong.some((b) => b.expected === 'carried-over') ? [cite(D, 17, { numero: 3 })] : [],
      evidence: [
        evidenceOf(r.view.voided!),
        ...wrong.flatMap((b) => b.declared.eventIds.map((id) => ({ eventId: id, eventTime: 0 }))),
      ],
    },
  ];
}

/** Art. 17.º n.º 3: the Progressive bets a voided round carries over must be re-stated in the next round. */
export function checkCarriedOver(
  due: readonly { seat: number; amount: number }[],
  voidedEvidence: readonly Evidence[],
  nextRoundId: string,
  nextBets: readonly BetPlaced[],
): FindingInput[] {
  const missing = due.filter(
    (d) =>
      !nextBets.some(
        (b) => b.betType === 'PROGRESSIVE' && b.carriedOver && b.seat === d.seat && b.amount === d.amount,
      ),
  );
  if (!missing.length) return [];
  return [
    {
      check: irregJackpotNotCarried,
      seats: missing.map((m) => m.seat),
      summary: `Progressive bets of the voided round (${missing.map((m) => `seat ${m.seat}: ${formatMop(m.amount)}`).join(', ')}) were not carried over to round ${nextRoundId}`,
      expected: missing,
      declared: nextBets
        .filter((b) => b.betType === 'PROGRESSIVE')
        .map((b) => ({ seat: b.seat, amount: b.amount, carriedOver: b.carriedOver })),
      evidence: [...voidedEvidence, ...nextBets.slice(0, 1).map(evidenceOf)],
    },
  ];
}

/** Art. 17.º n.º 2 (J15): after a second failure in a row, no new round until a new shuffler or the shoe. */
export function checkPlayAfterSecondFailure(
  consecutiveFailures: number,
  failures: readonly Evidence[],
  roundStarted: Evidence,
): FindingInput[] {
  if (consecutiveFailures < 2) return [];
  return [
    {
      check: irregPlayAfterSecondFailure,
      summary: `round started after ${consecutiveFailures} consecutive shuffler failures, with neither a new shuffler nor a shoe`,
      expected: 'no new round until the shuffler is replaced or a shoe is used',
      declared: { consecutiveFailures },
      evidence: [...failures, roundStarted],
    },
  ];
}
