/**
 * Exact house edges of every CRAPS bet under craps-2010, from the engine itself: the 36 equally likely throws of
 * two dice are played against the bet with `resolveThrow`, a throw that keeps the bet as it was is a throw that
 * decides nothing, and a throw that moves a line bet to its point continues from there. The edge is the player's
 * expected loss per unit staked, per bet resolved (a push counts as resolved, paying nothing): the convention of
 * the published figures (Pass Line 7/495).
 */
import { add, div, fraction, mul, neg, sub, toDecimal, type Fraction } from '../fraction.ts';
import { resolveThrow, type BetState } from './engine.ts';
import {
  BIG_NUMBERS,
  CRAPS_BETS,
  HARD_WAY_NUMBERS,
  POINT_NUMBERS,
  type CrapsBetKind,
  type CrapsRuleSet,
} from './rule-set.ts';

const ONE = fraction(1);
const ZERO = fraction(0);
const THROW = fraction(1, 36);

/** The player's expected gain per unit staked on a bet in `state`, until it is resolved. */
export function expectedValue(rules: CrapsRuleSet, state: BetState, field12: number): Fraction {
  let decided = ZERO;
  let keep = ZERO;
  for (let a = 1; a <= 6; a++)
    for (let b = 1; b <= 6; b++) {
      const step = resolveThrow(rules, state, [a, b], field12);
      if (step.resolution === 'WIN')
        decided = add(decided, mul(THROW, fraction(step.pays!.win, step.pays!.per)));
      else if (step.resolution === 'LOSE') decided = sub(decided, THROW);
      else if (step.resolution === 'PUSH') continue;
      else if (step.point === state.point) keep = add(keep, THROW);
      else decided = add(decided, mul(THROW, expectedValue(rules, { ...state, point: step.point }, field12)));
    }
  return div(decided, sub(ONE, keep));
}

export interface CrapsBetEdge {
  /** e.g. "PASS_LINE", "HARD_WAY 6", "PASS_ODDS 4", "FIELD (12 pays 3:1)" */
  readonly bet: string;
  readonly kind: CrapsBetKind;
  readonly number: number | null;
  readonly title: string;
  /** the provision that pays it, e.g. "53/2010 art.6 al.2" */
  readonly paidBy: string;
  readonly houseEdge: Fraction;
}

/** Every bet's exact house edge; the Field once per table option of the 12 (2:1 and 3:1). */
export function crapsHouseEdges(rules: CrapsRuleSet): CrapsBetEdge[] {
  const out: CrapsBetEdge[] = [];
  const push = (bet: string, kind: CrapsBetKind, state: BetState, field12 = 2): void => {
    const r = CRAPS_BETS[kind];
    const paid = r.paid;
    out.push({
      bet,
      kind,
      number: state.number ?? (r.family === 'odds' ? state.point : null),
      title: r.title,
      paidBy: `${paid.diploma} art.${paid.article}${paid.alinea === undefined ? '' : ` al.${paid.alinea}`}`,
      houseEdge: neg(expectedValue(rules, state, field12)),
    });
  };
  for (const kind of Object.keys(rules.bets) as CrapsBetKind[]) {
    const family = CRAPS_BETS[kind].family;
    if (kind === 'HARD_WAY')
      for (const n of HARD_WAY_NUMBERS) push(`HARD_WAY ${n}`, kind, { kind, number: n, point: null });
    else if (kind === 'BIG_NUMBER')
      for (const n of BIG_NUMBERS) push(`BIG_NUMBER ${n}`, kind, { kind, number: n, point: null });
    else if (family === 'odds')
      for (const p of POINT_NUMBERS) push(`${kind} ${p}`, kind, { kind, number: null, point: p });
    else if (kind === 'FIELD')
      for (const f of rules.fieldOnTwelveChoices)
        push(`FIELD (12 pays ${f}:1)`, kind, { kind, number: null, point: null }, f);
    else push(kind, kind, { kind, number: null, point: null });
  }
  return out;
}

/** The report `table-audit math craps` prints: one line per bet, the exact fraction and its decimal percentage. */
export function crapsMathReport(rules: CrapsRuleSet): string {
  const lines = [
    `${rules.title}: exact house edge of every bet, per unit staked and per bet resolved, from the engine's own`,
    `resolution of the 36 throws of two dice (interpretations C2 Horn, C3 Big numbers stay on other sums)`,
    '',
    `${'bet'.padEnd(26)} ${'paid by'.padEnd(19)} ${'house edge (fraction)'.padEnd(22)} percent`,
  ];
  for (const e of crapsHouseEdges(rules)) {
    const pct = toDecimal(mul(e.houseEdge, fraction(100)), 4);
    lines.push(
      `${e.bet.padEnd(26)} ${e.paidBy.padEnd(19)} ${`${e.houseEdge.num}/${e.houseEdge.den}`.padEnd(22)} ${pct}%`,
    );
  }
  return lines.join('\n');
}
