/**
 * Problems with one CRAPS event that no table could have produced (a face of 7, three dice thrown, a Hard Way on
 * 5, a zero stake), each naming the field. What is merely wrong (a stake off the minimum, a payout off the rules,
 * a die not checked) is left for the replay's checks.
 */
import type { CrapsEvent } from '@table-audit/schemas/events';
import { BIG_NUMBERS, HARD_WAY_NUMBERS } from './rule-set.ts';
import { ODDS_BACKS } from './checks/art-05-07-bets.ts';

const positive = (p: string[], field: string, v: number): void => {
  if (!Number.isSafeInteger(v) || v <= 0) p.push(`${field} ${v} must be a positive whole number of avos`);
};

export function crapsEventProblems(e: CrapsEvent): string[] {
  const p: string[] = [];
  switch (e.type) {
    case 'TableOpened': {
      const s = e.data.craps;
      if (e.data.game !== 'CRAPS') break;
      if (!s) {
        p.push('craps is required for a CRAPS table (its minimum, maximum, Field 12 pay and dice)');
        break;
      }
      positive(p, 'craps.minimumBet', s.minimumBet);
      positive(p, 'craps.maximumBet', s.maximumBet);
      if (s.maximumBet < s.minimumBet)
        p.push(`craps.maximumBet ${s.maximumBet} is below craps.minimumBet ${s.minimumBet}`);
      if (s.field12PaysToOne !== 2 && s.field12PaysToOne !== 3)
        p.push(`craps.field12PaysToOne ${s.field12PaysToOne} must be 2 or 3 (art. 6.º 12))`);
      if (s.dieIds.length < 2) p.push(`craps.dieIds has ${s.dieIds.length} dice: a throw needs two`);
      if (new Set(s.dieIds).size !== s.dieIds.length) p.push('craps.dieIds names a die twice');
      break;
    }
    case 'DiceThrown': {
      const t = e.data;
      if (t.header.roundId === null) p.push('header.roundId is required for DiceThrown: it is the throw id');
      if (!t.shooterId) p.push('shooterId is empty');
      if (t.dieIds.length !== 2) p.push(`dieIds has ${t.dieIds.length} dice: a throw is of two dice`);
      if (t.faces.length !== 2) p.push(`faces has ${t.faces.length} values: a throw shows two faces`);
      t.faces.forEach((f, i) => {
        if (!Number.isInteger(f) || f < 1 || f > 6)
          p.push(`faces[${i}] ${f} is not a face of a die (1 to 6)`);
      });
      break;
    }
    case 'CrapsBetPlaced': {
      const b = e.data;
      if (!b.betId) p.push('betId is empty');
      if (!b.playerId) p.push('playerId is empty');
      positive(p, 'amount', b.amount);
      if (b.betType === 'HARD_WAY' && (b.number === null || !HARD_WAY_NUMBERS.includes(b.number)))
        p.push(`number ${b.number} is not a Hard Way number (4, 6, 8 or 10)`);
      else if (b.betType === 'BIG_NUMBER' && (b.number === null || !BIG_NUMBERS.includes(b.number)))
        p.push(`number ${b.number} is not a Big number (4, 5, 6, 8, 9 or 10)`);
      else if (b.betType !== 'HARD_WAY' && b.betType !== 'BIG_NUMBER' && b.number !== null)
        p.push(`number ${b.number} is given for a ${b.betType} bet, which names no number`);
      if (b.betType === 'EXTRA' && !b.extraBetName) p.push('extraBetName is required for an EXTRA bet');
      if (b.betType !== 'EXTRA' && b.extraBetName !== null)
        p.push(`extraBetName is given for a ${b.betType} bet: only an EXTRA bet has one`);
      if (b.behindBetId !== null && !(b.betType in ODDS_BACKS))
        p.push(`behindBetId is given for a ${b.betType} bet: only an odds bet backs another`);
      break;
    }
    case 'CrapsBetResolved': {
      const r = e.data;
      if (!r.betId) p.push('betId is empty');
      if (r.header.roundId === null)
        p.push('header.roundId is required for CrapsBetResolved: the throw that resolved it');
      if (!Number.isSafeInteger(r.payout) || r.payout < 0)
        p.push(`payout ${r.payout} must be a whole, non-negative number of avos`);
      if (r.outcome !== 'WIN' && r.payout !== 0)
        p.push(`payout ${r.payout} on a ${r.outcome}: only a WIN is paid`);
      break;
    }
    case 'ShooterChanged':
      if (!e.data.shooterId) p.push('shooterId is empty');
      break;
    case 'DieLeftTable':
    case 'DieChecked':
      if (!e.data.dieId) p.push('dieId is empty');
      break;
    default:
      break;
  }
  return p;
}
