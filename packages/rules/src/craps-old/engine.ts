/**
 * The CRAPS engine: what one valid throw does to one bet under art. 5.º and 6.º of Despacho 53/2010. Pure: a bet's
 * state (its kind, the number it names, its own point) and two faces in, the resolution (or none: the bet stays)
 * and the bet's next point out. The replay, the simulator and the math all use it, so the house edges printed by
 * `table-audit math craps` come from the same rules that judge a table.
 */
import { proportion, type Avos, type Ratio, type RoundingPolicy } from '../money.ts';
import { CRAPS_BETS, type CrapsBetKind, type CrapsRuleSet } from './rule-set.ts';

export type Resolution = 'WIN' | 'LOSE' | 'PUSH';

/** What the engine needs of a bet on the table. */
export interface BetState {
  readonly kind: CrapsBetKind;
  /** the number a Hard Way or Big bet names; null for the others */
  readonly number: number | null;
  /**
   * A line bet's own point (null before its come-out decided it: Pass/Don't Pass at the table's come-out, Come/Don't
   * Come on the throw after they were placed); an odds bet's point is that of the bet it backs.
   */
  readonly point: number | null;
}

/** What one throw does to one bet: resolved (with the ratio of a win), or kept with its (possibly new) point. */
export interface Step {
  readonly resolution: Resolution | null;
  /** the ratio a WIN pays, "X para Y"; null unless WIN */
  readonly pays: Ratio | null;
  /** the bet's point after the throw (a line bet's come-out sets it) */
  readonly point: number | null;
}

const NATURAL = new Set([7, 11]);
const CRAPS = new Set([2, 3, 12]);
const stay = (point: number | null): Step => ({ resolution: null, pays: null, point });
const lose = (point: number | null): Step => ({ resolution: 'LOSE', pays: null, point });
const win = (pays: Ratio, point: number | null): Step => ({ resolution: 'WIN', pays, point });
const EVEN: Ratio = { win: 1, per: 1 };
const PUSH: Step = { resolution: 'PUSH', pays: null, point: null };

/**
 * One valid throw against one bet. `field12` is what the table pays on a Field 12, to one (2 or 3, art. 6.º 12)).
 * Throws for a bet the rules cannot resolve (an odds bet without a point): the fold never asks for one.
 */
export function resolveThrow(
  rules: CrapsRuleSet,
  bet: BetState,
  faces: readonly [number, number],
  field12: number,
): Step {
  const [a, b] = faces;
  const sum = a + b;
  const p = bet.point;
  switch (bet.kind) {
    case 'PASS_LINE':
    case 'COME':
      // art. 5.º n.º 2 1), 5)
      if (p === null) {
        if (NATURAL.has(sum)) return win(EVEN, null);
        if (CRAPS.has(sum)) return lose(null);
        return stay(sum);
      }
      return sum === p ? win(EVEN, p) : sum === 7 ? lose(p) : stay(p);
    case 'DONT_PASS':
    case 'DONT_COME':
      // art. 5.º n.º 2 3), 6): the come-out 12 is a tie ("bar"), the bet returned
      if (p === null) {
        if (sum === 2 || sum === 3) return win(EVEN, null);
        if (NATURAL.has(sum)) return lose(null);
        // the alternative reading of C5: the bet stays on the layout for the next come-out
        if (sum === 12) return rules.alternatives?.includes('C5') ? stay(null) : PUSH;
        return stay(sum);
      }
      return sum === 7 ? win(EVEN, p) : sum === p ? lose(p) : stay(p);
    case 'PASS_ODDS':
    case 'COME_ODDS':
      if (p === null) throw new Error(`${bet.kind} without a point cannot be resolved`);
      return sum === p ? win(rules.passOdds[p]!, p) : sum === 7 ? lose(p) : stay(p);
    case 'DONT_PASS_ODDS':
    case 'DONT_COME_ODDS':
      if (p === null) throw new Error(`${bet.kind} without a point cannot be resolved`);
      return sum === 7 ? win(rules.dontOdds[p]!, p) : sum === p ? lose(p) : stay(p);
    case 'ANY_CRAPS':
      return CRAPS.has(sum) ? win(rules.oneThrow.ANY_CRAPS!, null) : lose(null);
    case 'ANY_SEVEN':
      return sum === 7 ? win(rules.oneThrow.ANY_SEVEN!, null) : lose(null);
    case 'ELEVEN':
      return sum === 11 ? win(rules.oneThrow.ELEVEN!, null) : lose(null);
    case 'ACE_DEUCE':
      return sum === 3 ? win(rules.oneThrow.ACE_DEUCE!, null) : lose(null);
    case 'ACES':
      return sum === 2 ? win(rules.oneThrow.ACES!, null) : lose(null);
    case 'BOXCARS':
      return sum === 12 ? win(rules.oneThrow.BOXCARS!, null) : lose(null);
    case 'HORN':
      // interpretation C2: 27:4 and 3:1 on the whole Horn stake, net of the three losing units
      if (sum === 2 || sum === 12) return win(rules.horn.onTwoOrTwelve, null);
      if (sum === 3 || sum === 11)
        // the alternative reading of C2 (the ratio on the winning unit alone) nets 0 on 3 or 11: neither won nor lost
        return rules.horn.onThreeOrEleven.win === 0 ? PUSH : win(rules.horn.onThreeOrEleven, null);
      return lose(null);
    case 'FIELD':
      if (sum === 2) return win(rules.fieldOnTwo, null);
      if (sum === 12) return win({ win: field12, per: 1 }, null);
      return [3, 4, 9, 10, 11].includes(sum) ? win(EVEN, null) : lose(null);
    case 'BIG':
      return sum >= 8 ? win(rules.oneThrow.BIG!, null) : lose(null);
    case 'SMALL':
      return sum <= 6 ? win(rules.oneThrow.SMALL!, null) : lose(null);
    case 'HARD_WAY': {
      const n = bet.number!;
      if (sum === n) return a === b ? win(rules.hardWay[n]!, null) : lose(null);
      return sum === 7 ? lose(null) : stay(null);
    }
    case 'BIG_NUMBER': {
      // interpretation C3: any other sum is the law's "empate", a throw that decides nothing; the bet stays
      const n = bet.number!;
      if (sum === n) return win(rules.bigNumber[n]!, null);
      if (sum === 7) return lose(null);
      // the alternative reading of C3: the "empate" returns the bet
      return rules.alternatives?.includes('C3') ? PUSH : stay(null);
    }
  }
}

/** The winnings a WIN pays on `stake` (the stake returned besides), rounded as the table rounds. */
export const winningsOf = (stake: Avos, pays: Ratio, rounding: RoundingPolicy): Avos =>
  proportion(stake, pays.win, pays.per, rounding);

/** Whether a bet is resolved on every throw (art. 5.º n.º 3). */
export const isOneThrow = (kind: CrapsBetKind): boolean => CRAPS_BETS[kind].family === 'one-throw';
