import type { ThirteenEvent } from '@table-audit/schemas/events';
import { formatCard } from '../cards.ts';
import { formatMacauTime, formatMop, utcText } from '../present.ts';
import { timelineOf } from '../round-fold.ts';
import {
  arrangementProblems,
  formatArrangement,
  judgeArrangement,
  type Arrangement,
  type JudgedArrangement,
} from './arrangement.ts';
import { dealOrder, firstPlace } from './deal.ts';
import { cardsByPlace } from './round.ts';
import type { ThirteenRuleSet } from './rule-set.ts';
import type { ThirteenRound } from './round.ts';
import { marginOf, scorePlace } from './score.ts';
import { settleThirteenRound } from './settle.ts';
import { bestArrangementAgainst, SolverInputError } from './solver.ts';
import { tierClassName } from './hands.ts';

/**
 * A disputed 13 Cards round step by step, from its facts: the dice and the first place (art. 2.º b), T3), each
 * place's arrangement with its tiers, points and result against the banker's (art. 7.º–10.º, T1), beside the best
 * legal arrangement the solver finds for the same cards, and each bet expected beside declared (art. 11.º, T2).
 * Times in Macau time (UTC+8); amounts in MOP here, in avos in the JSON.
 */
const marginOrNull = (m: number): number | null => (Number.isFinite(m) ? m : null);

export interface ThirteenExplanation {
  readonly json: object;
  readonly text: string;
}

/** An arrangement as the JSON shows it: each tier's cards and the formation it makes. */
function tiersOf(j: JudgedArrangement) {
  const tier = (cards: Arrangement['front'], key: number) => ({
    cards: cards.map(formatCard),
    formation: tierClassName(key),
  });
  return {
    front: tier(j.arrangement.front, j.keys[0]),
    middle: tier(j.arrangement.middle, j.keys[1]),
    back: tier(j.arrangement.back, j.keys[2]),
  };
}

/** An arrangement judged for the JSON, or null when it is not one of 3, 5 and 5 different cards. */
const judgedOrNull = (a: Arrangement, alternatives: readonly string[]): JudgedArrangement | null =>
  arrangementProblems(a).length === 0 ? judgeArrangement(a, alternatives) : null;

const PLACE_NAMES = ['the banker', 'place 1', 'place 2', 'place 3'];

/** One event of a 13 Cards round in words, for the timeline (cards as 'Kh', amounts in MOP). */
export function describeThirteenEvent(e: ThirteenEvent): string {
  const d = e.data as unknown as Record<string, unknown>;
  const cardsOf = (k: string) => ((d[k] as string[] | undefined) ?? []).join(' ');
  switch (e.type) {
    case 'RoundStarted':
      return `round ${String(d['roundNumber'])} started, dealer ${String(d['dealerId'] ?? 'not named')}`;
    case 'DeckCut':
      return `deck cut with the blank card: ${String(d['cardCount'])} cards taken (art. 2.º a))`;
    case 'DiceShaken': {
      const faces = (d['faces'] as number[]) ?? [];
      const sum = faces.reduce((a, b) => a + b, 0);
      const first = sum >= 4 && sum <= 24 ? `; first card to ${PLACE_NAMES[firstPlace(sum)]}` : '';
      return `dice ${faces.join('-')} = ${sum}, shaken by ${String(d['shakerPlayerId'] ?? 'the banker')}${first} (art. 2.º b), T3)`;
    }
    case 'ThirteenCardDealt':
      return `${String(d['card'])} dealt to ${PLACE_NAMES[d['place'] as number] ?? `place ${String(d['place'])}`}${d['faceUp'] ? ', face up' : ''}${d['misdeal'] ? `, misdeal${d['correctedTo'] === null ? ' not corrected' : `, given to ${PLACE_NAMES[d['correctedTo'] as number] ?? String(d['correctedTo'])}`} (art. 4.º)` : ''}`;
    case 'DealCancelled':
      return `deal cancelled (art. 4.º); reshuffled by ${d['reshuffledByBanker'] ? 'the banker' : d['reshuffledByMachine'] ? 'the machine' : 'nobody'}`;
    case 'ThirteenBetPlaced':
      return `bet ${String(d['betId'])} by ${String(d['playerId'])}${d['seated'] ? '' : ' (not seated)'} on place ${String(d['place'])}: ${formatMop(d['amount'] as number)}, ${String(d['units'])} point(s)`;
    case 'ThirteenBetChanged':
      return `bet ${String(d['betId'])} ${String(d['change']).toLowerCase()}${d['toPlace'] === null ? '' : ` to place ${String(d['toPlace'])}`}`;
    case 'BankerArranged':
      return `the banker shows ${cardsOf('front')} / ${cardsOf('middle')} / ${cardsOf('back')}`;
    case 'PlaceCardsTaken':
      return `place ${String(d['place'])}'s cards taken by ${String(d['holderPlayerId'] ?? 'nobody named')}`;
    case 'PlaceArranged':
      return `place ${String(d['place'])} arranged ${cardsOf('front')} / ${cardsOf('middle')} / ${cardsOf('back')}`;
    case 'ArrangeSignalGiven':
      return 'the five-minute signal (art. 2.º d))';
    case 'ThirteenConductObserved':
      return `${String(d['playerId'])} at place ${String(d['place'])}: ${String(d['conduct']).toLowerCase().replaceAll('_', ' ')}`;
    case 'ThirteenBetSettled':
      return `bet ${String(d['betId'])} settled ${String(d['outcome'])}, net ${formatMop(d['net'] as number)}`;
    case 'RoundSettled':
      return 'round settled';
    case 'RoundVoided':
      return `round voided${d['reason'] ? `: ${String(d['reason'])}` : ''}`;
    default:
      return e.type;
  }
}

/** The timeline of a round: every event in the order stored, its time as UTC text (Macau time is shown from it). */
export const thirteenSteps = (events: readonly ThirteenEvent[]) => timelineOf(events, describeThirteenEvent);

export function explainThirteenRound(r: ThirteenRound, rules: ThirteenRuleSet): ThirteenExplanation {
  const settled = settleThirteenRound(r, rules);
  const alternatives = rules.alternatives ?? [];
  const lines: string[] = [];
  lines.push(
    `13 Cards round ${r.roundId} at table ${r.tableId} — rule set ${rules.id}; times in Macau time (UTC+8)${alternatives.length ? `; alternative readings ${alternatives.join(', ')}` : ''}`,
  );
  const diceOk = r.dice.sum >= 4 && r.dice.sum <= 24;
  lines.push(
    `${formatMacauTime(r.dice.time)}  dice sum ${r.dice.sum}: first card to place ${diceOk ? firstPlace(r.dice.sum, alternatives) : '?'} (art. 2.º b), T3)`,
  );
  const hands = cardsByPlace(r.deal);
  const banker = settled.banker;
  if (banker)
    lines.push(
      `banker shows ${formatArrangement(banker.arrangement)}${banker.foul ? ' — FOUL (art. 7.º)' : ''}`,
    );
  const places: object[] = [];
  for (const p of r.places) {
    if (p.place === 0) continue;
    const played = p.arranged ? judgedOrNull(p.arranged.arrangement, alternatives) : null;
    const entry = settled.places.get(p.place);
    const scored =
      played && banker ? scorePlace(played, banker, { late: entry?.late ?? false }, alternatives) : null;
    const cards = hands[p.place] ?? [];
    // the best arrangement is worked out only for cards that can be one deal's: a hand sharing a card with the
    // banker's (an impossible deal, which the round's own findings report) is said so, never a failed explanation
    let best: ReturnType<typeof bestArrangementAgainst> | null = null;
    let bestNotWorkedOut: string | null = null;
    if (banker && cards.length === 13 && !banker.foul)
      try {
        best = bestArrangementAgainst(cards, banker);
      } catch (err) {
        if (!(err instanceof SolverInputError)) throw err;
        bestNotWorkedOut = err.message;
      }
    lines.push(
      `place ${p.place} (held by ${p.holderPlayerId ?? 'nobody'}), dealt ${cards.map(formatCard).join(' ')}`,
    );
    if (played && p.arranged) {
      lines.push(
        `  ${formatMacauTime(p.arranged.time)}  played ${formatArrangement(played.arrangement)}: ${played.keys.map(tierClassName).join(' / ')}${played.foul ? ' — FOUL (art. 7.º)' : ''}${played.natural ? ` — natural: ${played.natural}` : ''}${entry?.late ? ' — after the five minutes (art. 2.º d))' : ''}`,
      );
    } else lines.push('  no arrangement of 3, 5 and 5 cards recorded');
    if (scored) {
      lines.push(
        `  result ${scored.outcome} (${scored.reason}): place ${scored.placePoints} points, banker ${scored.bankerPoints} (art. 8.º–10.º, T1)`,
      );
      for (const t of scored.tiers)
        lines.push(
          `    tier ${t.tier + 1}: ${t.winner} scores ${t.points}${t.bankerByEquality ? ' (equal: the banker’s, art. 10.º)' : ''}`,
        );
    }
    if (bestNotWorkedOut !== null)
      lines.push(`  best legal arrangement: not worked out — ${bestNotWorkedOut}`);
    if (best) {
      const playedMargin = scored ? marginOf(scored) : null;
      lines.push(
        `  best legal arrangement: ${formatArrangement(best.arrangement)} (margin ${best.margin}${playedMargin === null ? '' : `; played ${Number.isFinite(playedMargin) ? playedMargin : 'lost by foul or lateness'}`})`,
      );
    }
    places.push({
      place: p.place,
      holder: p.holderPlayerId,
      dealt: cards.map(formatCard),
      played: p.arranged ? formatArrangement(p.arranged.arrangement) : null,
      arrangedAt: p.arranged ? utcText(p.arranged.time) : null,
      tiers: played ? tiersOf(played) : null,
      foul: played?.foul ?? null,
      natural: played?.natural ?? null,
      late: entry?.late ?? null,
      result: scored,
      best: best
        ? {
            arrangement: formatArrangement(best.arrangement),
            margin: best.margin,
            tiers: tiersOf(judgeArrangement(best.arrangement)),
            playedMargin: scored ? marginOrNull(marginOf(scored)) : null,
          }
        : null,
      ...(bestNotWorkedOut === null ? {} : { bestNotWorkedOut }),
      interpretations: ['T1', 'T4', 'T5', 'T6'],
    });
  }
  const bets = settled.bets.map((x) => {
    const declared = r.settlements.find((s) => s.betId === x.bet.betId) ?? null;
    lines.push(
      `bet ${x.bet.betId} (${x.bet.playerId}) on place ${x.bet.place}, ${formatMop(x.bet.amount)} × ${x.bet.units} unit(s): expected ${x.settlement.outcome} ${formatMop(x.settlement.net)} (commission ${formatMop(x.settlement.commission)}, art. 11.º, T2); declared ${declared ? `${declared.outcome} ${formatMop(declared.net)}` : 'nothing'}`,
    );
    return {
      betId: x.bet.betId,
      playerId: x.bet.playerId,
      place: x.bet.place,
      amount: x.bet.amount,
      units: x.bet.units,
      expected: x.settlement,
      declared,
      interpretations: ['T2'],
    };
  });
  for (const why of settled.notSettled) lines.push(`not settled: ${why}`);
  return {
    json: {
      roundId: r.roundId,
      tableId: r.tableId,
      ruleSet: rules.id,
      alternatives,
      payout: rules.payout,
      diceSum: r.dice.sum,
      dice: {
        sum: r.dice.sum,
        time: utcText(r.dice.time),
        shaker: r.dice.shakerPlayerId,
        firstPlace: firstPlace(r.dice.sum, alternatives),
        placeOrder: dealOrder(r.dice.sum, alternatives).slice(0, 4),
        interpretations: ['T3'],
      },
      banker: banker
        ? {
            arrangement: formatArrangement(banker.arrangement),
            tiers: tiersOf(banker),
            foul: banker.foul,
            natural: banker.natural,
            shown: r.bankerShown.length,
          }
        : null,
      bankerDealt: (hands[0] ?? []).map(formatCard),
      places,
      bets,
      notSettled: settled.notSettled,
    },
    text: lines.join('\n'),
  };
}
