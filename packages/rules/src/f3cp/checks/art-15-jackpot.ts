import { cite } from '../../citations/citation.ts';
import { defineCheck, evidenceOf, type FindingInput } from '../../findings.ts';
import { formatMop } from '../../present.ts';
import { engineJackpotHand, jackpotShare } from '../events.ts';
import { F3CP_2025_DIPLOMA as D } from '../rule-set.ts';
import type { JudgedRound, SettledRound } from '../round.ts';

/** Arts. 13.º 7), 15.º and 16.º n.º 3: the community cards and the Progressive Jackpot. */

export const jackpotOrder = defineCheck(
  'F3CP.JACKPOT.ORDER',
  'Progressive Jackpot paid out of order',
  'medium',
  // art. 15.º n.º 5 and J10 come from the payments themselves when a round has a Royal and a Straight Flush
  [cite(D, 15, { numero: 3 })],
  ['J14'],
);

export const jackpotAmount = defineCheck(
  'F3CP.JACKPOT.AMOUNT',
  'Progressive Jackpot paid a wrong amount',
  'high',
  [cite(D, 16, { numero: 3 }), cite(D, 15, { numero: 4 })],
  ['J4', 'J6'],
);

export const jackpotPool = defineCheck(
  'F3CP.JACKPOT.POOL',
  'Progressive Jackpot pool not reduced or reset as required, or changed unrecorded',
  'high',
  [cite(D, 15, { numero: 6 })],
  ['J4', 'J6'],
);

export const communityWithoutBets = defineCheck(
  'F3CP.JACKPOT.COMMUNITY_REVEALED_WITHOUT_BETS',
  'community cards revealed with no Progressive bet',
  'medium',
  [cite(D, 15, { numero: 2 })],
  ['J20'],
);

export const communityRevealedEarly = defineCheck(
  'F3CP.JACKPOT.COMMUNITY_REVEALED_EARLY',
  'community cards revealed before the players decided',
  'high',
  [cite(D, 13, { alinea: 7 }), cite(D, 12, { numero: 2 })],
);

/** Art. 15.º n.º 2 (and J17): with no Progressive bet the community cards stay face down. */
export function checkCommunityWithoutBets(r: JudgedRound): FindingInput[] {
  const c = r.view.communityRevealed;
  if (!c || r.anyProgressive) return [];
  return [
    {
      check: communityWithoutBets,
      extraInterpretations: ['J17'],
      summary: `community cards ${c.cards.join(' ')} revealed although no hand bet the Progressive Jackpot`,
      declared: c.cards,
      evidence: [evidenceOf(c)],
    },
  ];
}

/**
 * Art. 13.º 7): the community cards are revealed "no fim", after the hands are settled; revealed while a player
 * still had to decide Play or Fold, they tell that player two cards no one may know yet.
 */
export function checkCommunityRevealedEarly(r: JudgedRound): FindingInput[] {
  const c = r.view.communityRevealed;
  const late = r.view.decisionsAfterReveal;
  if (!c || !late.length) return [];
  return [
    {
      check: communityRevealedEarly,
      seats: late.map((d) => d.seat),
      summary: `community cards ${c.cards.join(' ')} revealed before the decision of seat(s) ${late.map((d) => d.seat).join(', ')}`,
      expected: 'community cards revealed last, after every Play/Fold decision',
      declared: { decisionsAfterReveal: late.map((d) => ({ seat: d.seat, decision: d.decision })) },
      evidence: [evidenceOf(c), ...late.map(evidenceOf)],
    },
  ];
}

/** Art. 15.º n.º 3 and 5: left to right from the banker's left; Straight Flushes before a Royal Flush. */
export function checkJackpotOrder(r: SettledRound): FindingInput[] {
  const expected = r.settlement.jackpot?.payments ?? [];
  const declared = r.view.jackpotPaid;
  const expectedSeats = expected.map((p) => p.seat);
  const declaredSeats = declared.map((p) => p.seat);
  const sameSet = [...expectedSeats].sort().join() === [...declaredSeats].sort().join();
  if (!sameSet || expectedSeats.join() === declaredSeats.join()) return [];
  return [
    {
      check: jackpotOrder,
      seats: expectedSeats,
      summary: `paid seats ${declaredSeats.join(', ')}; art. 15.º requires ${expectedSeats.join(', ')}`,
      expected: expected.map((p) => ({ seat: p.seat, hand: p.hand })),
      declared: declared.map((p) => ({ seat: p.seat, hand: p.hand })),
      extraCitations: expected[0]?.citations ?? [],
      extraInterpretations: expected[0]?.interpretations ?? [],
      evidence: declared.map(evidenceOf),
    },
  ];
}

/**
 * Art. 16.º n.º 3 and 15.º n.º 4: each award is the fixed amount, or for a Royal/Straight Flush the greater of it
 * and the pool's share. Each declared payment is judged on the pool it declares it started from, so one wrong
 * payment is one finding.
 */
export function checkJackpotAmounts(r: SettledRound): FindingInput[] {
  const config = r.jackpotConfig;
  const expected = r.settlement.jackpot?.payments ?? [];
  const declared = r.view.jackpotPaid;
  const out: FindingInput[] = [];
  for (const p of expected) {
    const d = declared.find((x) => x.seat === p.seat);
    const fixed = p.fixedAmount;
    const share = d && p.share !== null ? jackpotShare(p.hand, d.poolBefore, config!) : p.share;
    const amount = share === null ? fixed : Math.max(fixed, share);
    if (d && d.amount === amount) continue;
    out.push({
      check: jackpotAmount,
      discriminator: String(p.seat),
      seats: [p.seat],
      summary: `seat ${p.seat} ${p.hand}: ${d ? `paid ${formatMop(d.amount)}` : 'not paid'}, due ${formatMop(amount)}${share !== null ? ` (greater of the fixed ${formatMop(fixed)} and ${p.hand === 'royal-flush' ? '100%' : '10%'} of a pool of ${formatMop(d?.poolBefore ?? p.poolBefore)})` : ''}`,
      expected: { hand: p.hand, amount },
      declared: d ? { hand: d.hand, amount: d.amount } : null,
      extraCitations: p.citations,
      extraInterpretations: p.interpretations,
      evidence: d ? [evidenceOf(d)] : [],
    });
  }
  const expectedSeats = new Set(expected.map((p) => p.seat));
  for (const d of declared) {
    if (expectedSeats.has(d.seat)) continue;
    const bets = r.view.bets.get(d.seat);
    const invalidBet = bets !== undefined && bets.progressive > 0 && bets.ante === 0 && bets.pairPlus === 0;
    out.push({
      check: jackpotAmount,
      discriminator: String(d.seat),
      seats: [d.seat],
      summary: invalidBet
        ? `seat ${d.seat} paid ${formatMop(d.amount)} from the jackpot on a Progressive bet placed without an Ante or Pair Plus bet, which art. 4.º n.º 3 makes invalid (the stake is returned, nothing is won)`
        : bets?.progressive
          ? `seat ${d.seat} paid ${formatMop(d.amount)} from the jackpot without a qualifying hand`
          : `seat ${d.seat} paid ${formatMop(d.amount)} from the jackpot without a Progressive bet`,
      expected: null,
      declared: { hand: d.hand, amount: d.amount },
      extraCitations: invalidBet ? [cite(D, 4, { numero: 2 }), cite(D, 4, { numero: 3 })] : [],
      evidence: [evidenceOf(d)],
    });
  }
  return out;
}

/** Art. 15.º n.º 6 (J4): each payment starts where the previous left the pool and takes its share; empty resets. */
export function checkJackpotPool(r: SettledRound): FindingInput[] {
  const config = r.jackpotConfig;
  const expected = r.settlement.jackpot?.payments ?? [];
  const declared = r.view.jackpotPaid;
  if (!declared.length) return [];
  const problems: string[] = [];
  let pool = r.view.poolAtSettlement;
  for (const d of declared) {
    if (pool !== null && d.poolBefore !== pool)
      problems.push(
        `payment ${d.paymentOrder} declares a pool of ${formatMop(d.poolBefore)} before it, the pool was ${formatMop(pool)}`,
      );
    const hand = expected.find((x) => x.seat === d.seat)?.hand ?? engineJackpotHand(d.hand);
    let after = d.poolBefore;
    const share = config ? jackpotShare(hand, d.poolBefore, config) : null;
    if (share !== null) {
      after -= share;
      if (after === 0) after = config!.resetAmount;
    }
    if (d.poolAfter !== after)
      problems.push(
        `payment ${d.paymentOrder} (${d.hand}) leaves ${formatMop(d.poolAfter)}, should leave ${formatMop(after)}`,
      );
    pool = d.poolAfter;
  }
  if (r.view.poolAfterRound !== null && r.view.poolAfterRound !== pool)
    problems.push(
      `the jackpot system shows ${formatMop(r.view.poolAfterRound)} after the round, the last payment left ${formatMop(pool!)}`,
    );
  if (!problems.length) return [];
  return [
    {
      check: jackpotPool,
      summary: problems.join('; '),
      expected: expected.map((p) => ({ seat: p.seat, poolBefore: p.poolBefore, poolAfter: p.poolAfter })),
      declared: declared.map((p) => ({ seat: p.seat, poolBefore: p.poolBefore, poolAfter: p.poolAfter })),
      extraInterpretations: ['J4'],
      evidence: declared.map(evidenceOf),
    },
  ];
}
