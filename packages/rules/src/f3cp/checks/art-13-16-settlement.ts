import { cite } from '../../citations/citation.ts';
import { defineCheck, evidenceOf, type Evidence, type FindingInput } from '../../findings.ts';
import { formatMop } from '../../present.ts';
import { declaredKey, eventHand, expectedDeclarations } from '../events.ts';
import type { RoundView } from '../fold.ts';
import { F3CP_2025_DIPLOMA as D } from '../rule-set.ts';
import type { JudgedRound, SettledRound } from '../round.ts';
import { resumedAfterMalfunction } from './art-17-irregularities.ts';

/** Arts. 7.º and 13.º–16.º: the outcome of the hands and what each bet is paid. */

export const payoutMismatch = defineCheck(
  'F3CP.PAYOUT.MISMATCH',
  'a bet was settled differently from the rules',
  'high',
  [cite(D, 13), cite(D, 16)],
);

export const payoutRepeated = defineCheck(
  'F3CP.PAYOUT.REPEATED',
  'the same settlement was declared twice',
  'high',
  [cite(D, 13), cite(D, 15, { numero: 3 }), cite(D, 16)],
);

export const outcomeMisdeclared = defineCheck(
  'F3CP.OUTCOME.MISDECLARED',
  'declared hand, qualification or winner differs from the cards',
  'high',
  [cite(D, 7, { numero: 1 }), cite(D, 13)],
  ['J11'],
);

const describe = (x: { payout: number; collected: number; returned: number }): string =>
  [
    x.payout ? `paid ${formatMop(x.payout)}` : '',
    x.collected ? `collected ${formatMop(x.collected)}` : '',
    x.returned ? `returned ${formatMop(x.returned)}` : '',
  ]
    .filter(Boolean)
    .join(', ') || 'nothing';

const NOTHING = Object.freeze({ payout: 0, collected: 0, returned: 0, eventIds: [] as string[] });

/** Every bet's declared settlement (winnings paid, stake collected or returned) against the engine's. */
export function checkPayouts(r: SettledRound): FindingInput[] {
  const v = r.view;
  const expected = expectedDeclarations(r.settlement);
  if (declaredAsExpected(expected, v.declared)) return [];
  const keys = new Set([...expected.keys(), ...v.declared.keys()]);
  const out: FindingInput[] = [];
  for (const k of [...keys].sort()) {
    const e = expected.get(k);
    const d = v.declared.get(k) ?? NOTHING;
    const exp = e ?? NOTHING;
    if (exp.payout === d.payout && exp.collected === d.collected && exp.returned === d.returned) continue;
    const [seat, type] = k.split(':') as [string, string];
    const line = e?.line;
    // J15's alternative: a resumed round's Progressive bets move to the next round (art. 17.º n.º 3)
    const carried = !e && type === 'PROGRESSIVE' && resumedAfterMalfunction(r);
    out.push({
      check: payoutMismatch,
      discriminator: k,
      seats: [Number(seat)],
      players: [...(v.bets.get(Number(seat))?.players ?? [])],
      summary: `seat ${seat} ${type}: expected ${describe(exp)}${line ? ` (${line.basis})` : carried ? ' (carried over to the next round: art. 17.º n.º 3, the round resumed after a shuffler malfunction, J15 alternative)' : ' (no such bet to settle)'}, declared ${describe(d)}`,
      expected: {
        outcome: line?.outcome ?? 'none',
        payout: exp.payout,
        collected: exp.collected,
        returned: exp.returned,
        ...(line?.hand ? { hand: line.hand } : {}),
      },
      declared: { payout: d.payout, collected: d.collected, returned: d.returned },
      extraCitations: carried ? [cite(D, 17, { numero: 3 })] : (line?.citations ?? []),
      extraInterpretations: carried ? ['J15'] : (line?.interpretations ?? []),
      evidence: [
        ...d.eventIds.map((id) => eventRef(v, id)),
        ...v.betEvents.filter((b) => b.seat === Number(seat)).map(evidenceOf),
      ],
    });
  }
  return out;
}

/** Every declaration as expected and nothing declared beyond: the common case, decided without sorting. */
function declaredAsExpected(
  expected: ReadonlyMap<string, { payout: number; collected: number; returned: number }>,
  declared: RoundView['declared'],
): boolean {
  let matched = 0;
  for (const [k, exp] of expected) {
    const d = declared.get(k);
    if (d) matched++;
    const x = d ?? NOTHING;
    if (exp.payout !== x.payout || exp.collected !== x.collected || exp.returned !== x.returned) return false;
  }
  return matched === declared.size;
}

/**
 * A settlement event that repeats an earlier one of the same round (same kind, seat, bet and amount): a bet is
 * settled once. Judged on settled and voided rounds alike, since a repeated return or award is money out twice.
 */
export function checkRepeatedSettlements(r: JudgedRound): FindingInput[] {
  return r.view.repeatedSettlements.map(({ event, first }) => {
    const d = event.data as { seat: number; amount: number; betType?: string; hand?: string };
    return {
      check: payoutRepeated,
      discriminator: event.data.header.eventId,
      seats: [d.seat],
      players: [...(r.view.bets.get(d.seat)?.players ?? [])],
      summary: `${event.type} of ${formatMop(d.amount)} to seat ${d.seat} (${d.betType ?? d.hand}) declared again (first: event ${first})`,
      expected: 'one settlement per bet',
      declared: { type: event.type, seat: d.seat, amount: d.amount, repeats: first },
      evidence: [eventRef(r.view, first), evidenceOf(event.data)],
    };
  });
}

/** The declared banker hand, qualification and each seat's hand and result against the cards (arts. 7.º, 13.º). */
export function checkOutcome(r: SettledRound): FindingInput[] {
  const v = r.view;
  const s = r.settlement;
  const o = v.outcome;
  const expectedSeats = s.seats
    .filter((x) => {
      const b = v.bets.get(x.seat)!;
      return b.ante > 0 || b.pairPlus > 0;
    })
    .map((x) => ({
      seat: x.seat,
      hand: eventHand(x.hand),
      result:
        x.decision !== 'play'
          ? 'NONE'
          : !s.banker.qualifies
            ? 'WIN'
            : x.versusBanker === 'higher'
              ? 'WIN'
              : x.versusBanker === 'lower'
                ? 'LOSE'
                : 'TIE',
    }));
  const expected = {
    bankerHand: eventHand(s.banker.hand),
    bankerQualifies: s.banker.qualifies,
    seats: expectedSeats,
  };
  if (!o) {
    return [
      {
        check: outcomeMisdeclared,
        summary: 'no outcome was declared for a settled round',
        expected,
        declared: null,
        extraCitations: [s.banker.citations[1]!],
        evidence: [evidenceOf(v.events[v.events.length - 1]!.data)],
      },
    ];
  }
  const problems: string[] = [];
  if (o.bankerHand !== expected.bankerHand)
    problems.push(`banker hand ${o.bankerHand}, cards make ${expected.bankerHand}`);
  if (o.bankerQualifies !== expected.bankerQualifies)
    problems.push(`banker ${o.bankerQualifies ? 'declared qualifying' : 'declared not qualifying'}`);
  const declaredSeats = new Map(o.seats.map((x) => [x.seat, x]));
  for (const x of expectedSeats) {
    const d = declaredSeats.get(x.seat);
    if (!d) problems.push(`seat ${x.seat} not declared`);
    else {
      if (d.hand !== x.hand) problems.push(`seat ${x.seat} hand ${d.hand}, cards make ${x.hand}`);
      if (d.result !== x.result) problems.push(`seat ${x.seat} result ${d.result}, should be ${x.result}`);
    }
  }
  for (const d of o.seats)
    if (!expectedSeats.some((x) => x.seat === d.seat) && v.bets.has(d.seat))
      problems.push(`seat ${d.seat} declared without a basic bet`);
  if (!problems.length) return [];
  return [
    {
      check: outcomeMisdeclared,
      seats: o.seats.map((x) => x.seat),
      summary: problems.join('; '),
      expected,
      declared: { bankerHand: o.bankerHand, bankerQualifies: o.bankerQualifies, seats: o.seats },
      extraCitations: [s.banker.citations[1]!],
      evidence: [evidenceOf(o), ...v.dealt.map(evidenceOf)],
    },
  ];
}

export function eventRef(v: RoundView, eventId: string): Evidence {
  const e = v.events.find((x) => x.data.header.eventId === eventId);
  return { eventId, eventTime: e?.data.header.eventTime ?? 0 };
}

export { declaredKey };
