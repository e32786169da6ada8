import { formatCard } from '../cards.ts';
import { formatMacauTime, formatMop } from '../present.ts';
import { arrangementProblems, formatArrangement, judgeArrangement } from './arrangement.ts';
import { cardsByPlace } from './round.ts';
import type { ThirteenRuleSet } from './rule-set.ts';
import type { ThirteenRound } from './round.ts';
import { marginOf, scorePlace } from './score.ts';
import { settleThirteenRound } from './settle.ts';
import { bestArrangementAgainst } from './solver.ts';
import { tierClassName } from './hands.ts';

/**
 * A disputed 13 Cards round step by step, from its facts: the dice and the first place (art. 2.º b), T3), each
 * place's arrangement with its tiers, points and result against the banker's (art. 7.º–10.º, T1), beside the best
 * legal arrangement the solver finds for the same cards, and each bet expected beside declared (art. 11.º, T2).
 * Times in Macau time (UTC+8); amounts in MOP here, in avos in the JSON.
 */
export interface ThirteenExplanation {
  readonly json: object;
  readonly text: string;
}

export function explainThirteenRound(r: ThirteenRound, rules: ThirteenRuleSet): ThirteenExplanation {
  const settled = settleThirteenRound(r, rules);
  const lines: string[] = [];
  lines.push(
    `13 Cards round ${r.roundId} at table ${r.tableId} — rule set ${rules.id}; times in Macau time (UTC+8)`,
  );
  lines.push(
    `${formatMacauTime(r.dice.time)}  dice sum ${r.dice.sum}: first card to place ${(r.dice.sum - 1) % 4} (art. 2.º b), T3)`,
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
    const played =
      p.arranged && arrangementProblems(p.arranged.arrangement).length === 0
        ? judgeArrangement(p.arranged.arrangement)
        : null;
    const entry = settled.places.get(p.place);
    const scored = played && banker ? scorePlace(played, banker, { late: entry?.late ?? false }) : null;
    const cards = hands[p.place] ?? [];
    const best = banker && cards.length === 13 && !banker.foul ? bestArrangementAgainst(cards, banker) : null;
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
      foul: played?.foul ?? null,
      natural: played?.natural ?? null,
      late: entry?.late ?? null,
      result: scored,
      best: best ? { arrangement: formatArrangement(best.arrangement), margin: best.margin } : null,
    });
  }
  const bets = settled.bets.map((x) => {
    const declared = r.settlements.find((s) => s.betId === x.bet.betId) ?? null;
    lines.push(
      `bet ${x.bet.betId} (${x.bet.playerId}) on place ${x.bet.place}, ${formatMop(x.bet.amount)} × ${x.bet.units} unit(s): expected ${x.settlement.outcome} ${formatMop(x.settlement.net)} (commission ${formatMop(x.settlement.commission)}, art. 11.º, T2); declared ${declared ? `${declared.outcome} ${formatMop(declared.net)}` : 'nothing'}`,
    );
    return { betId: x.bet.betId, expected: x.settlement, declared };
  });
  for (const why of settled.notSettled) lines.push(`not settled: ${why}`);
  return {
    json: {
      roundId: r.roundId,
      tableId: r.tableId,
      ruleSet: rules.id,
      diceSum: r.dice.sum,
      places,
      bets,
      notSettled: settled.notSettled,
    },
    text: lines.join('\n'),
  };
}
