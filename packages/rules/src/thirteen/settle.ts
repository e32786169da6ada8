import { arrangementProblems, judgeArrangement, type JudgedArrangement } from './arrangement.ts';
import type { ThirteenRuleSet } from './rule-set.ts';
import type { BetFact, PlaceFacts, ThirteenRound } from './round.ts';
import { scorePlace, settleBet, settleBetByPoints, type BetSettlement, type ScoredPlace } from './score.ts';

/** Art. 2.º d), 7.º–11.º: what the round's bets should have come to, from its facts. */
export interface ExpectedBet {
  readonly bet: BetFact;
  readonly scored: ScoredPlace;
  readonly settlement: BetSettlement;
}

export interface SettledRound {
  /** the banker's arrangement the places play against: the last one shown */
  readonly banker: JudgedArrangement | null;
  readonly places: ReadonlyMap<
    number,
    { facts: PlaceFacts; judged: JudgedArrangement | null; late: boolean }
  >;
  readonly bets: readonly ExpectedBet[];
  /** why some bets could not be settled (each names the bet and the reason) */
  readonly notSettled: readonly string[];
}

/** The moment the arranging time ends: the banker's last showing plus the table's minutes (art. 2.º d)). */
export const arrangeDeadline = (r: ThirteenRound, rules: ThirteenRuleSet): number | null => {
  const shown = r.bankerShown.at(-1);
  return shown ? shown.time + rules.arrangeMinutes * 60_000 : null;
};

export function settleThirteenRound(r: ThirteenRound, rules: ThirteenRuleSet): SettledRound {
  const notSettled: string[] = [];
  const alternatives = rules.alternatives ?? [];
  const shown = r.bankerShown.at(-1);
  let banker =
    shown && arrangementProblems(shown.arrangement).length === 0
      ? judgeArrangement(shown.arrangement, alternatives)
      : null;
  if (!banker)
    notSettled.push(
      shown ? 'the banker’s arrangement is not 3, 5 and 5 different cards' : 'the banker never showed',
    );
  else if (banker.foul && !banker.natural && alternatives.includes('T6')) {
    // the alternative reading of T6: a fouled banker re-arranges; the events show no arrangement after this one
    notSettled.push(
      'the banker’s last arrangement fouls, and under the alternative reading of T6 the banker re-arranges: no later arrangement is recorded',
    );
    banker = null;
  }
  const deadline = arrangeDeadline(r, rules);
  const places = new Map<number, { facts: PlaceFacts; judged: JudgedArrangement | null; late: boolean }>();
  for (const p of r.places) {
    const judged =
      p.arranged && arrangementProblems(p.arranged.arrangement).length === 0
        ? judgeArrangement(p.arranged.arrangement, alternatives)
        : null;
    const late = deadline !== null && (p.arranged === null || p.arranged.time > deadline);
    places.set(p.place, { facts: p, judged, late });
  }
  const bets: ExpectedBet[] = [];
  const withdrawn = new Set(r.betChanges.filter((c) => c.kind === 'withdrawn').map((c) => c.betId));
  for (const bet of r.bets) {
    if (withdrawn.has(bet.betId)) continue;
    // art. 2.º c): the banker pays or collects each bet by the place where it was made (a move after the dice
    // is not allowed, so it does not change where the bet plays); a withdrawn bet is not settled
    const placeNo = bet.place;
    const place = places.get(placeNo);
    if (!banker || !place) {
      notSettled.push(
        `bet ${bet.betId}: ${place ? 'no banker arrangement' : `no arrangement for place ${placeNo}`}`,
      );
      continue;
    }
    if (!place.judged && !place.late) {
      notSettled.push(`bet ${bet.betId}: place ${placeNo}'s arrangement is not 3, 5 and 5 different cards`);
      continue;
    }
    const scored: ScoredPlace = place.judged
      ? scorePlace(place.judged, banker, { late: place.late }, alternatives)
      : { outcome: 'lose', reason: 'place-late', placePoints: 0, bankerPoints: 0, tiers: [] };
    const settlement = alternatives.includes('T2')
      ? settleBetByPoints(scored, bet.amount, bet.units, rules.payout)
      : settleBet(scored.outcome, bet.amount, bet.units, rules.payout);
    bets.push({ bet, scored, settlement });
  }
  return { banker, places, bets, notSettled };
}
