import type { Avos } from '../../money.ts';
import type { F3cpSeatFacts, F3cpVoidReason } from '../facts.ts';
import { C, line, type SettlementLine } from './lines.ts';

/**
 * Bets returned rather than settled: an additional bet without a basic bet (art. 4.º n.º 2 and 3), and every bet
 * of a round voided under art. 17.º, the Progressive bets of n.º 1 1) and n.º 2 moving to the next round (n.º 3).
 */

export function invalidAdditional(
  seat: number,
  bet: 'sixCardBonus' | 'progressive',
  amount: Avos,
): SettlementLine {
  return line({
    seat,
    bet,
    amount,
    outcome: 'void',
    basis: 'an additional bet without an Ante or Pair Plus bet is invalid and is returned',
    citations: [C.basicRequired, C.invalidWithoutBasic],
  });
}

export function voidSeat(s: F3cpSeatFacts, reason: F3cpVoidReason, lines: SettlementLine[]): void {
  const why = {
    'dealing-rules-broken': [C.voidDealing],
    'banker-card-exposed': [C.voidBankerCard],
    'player-cards-exposed': [C.voidPlayerCards],
    'shuffler-malfunction': [C.shufflerMalfunction],
  }[reason];
  const carries = reason === 'dealing-rules-broken' || reason === 'shuffler-malfunction';
  const order = ['ante', 'play', 'pairPlus', 'sixCardBonus', 'progressive'] as const;
  for (const bet of order) {
    const amount = s.bets[bet] ?? 0;
    if (amount <= 0) continue;
    if (bet === 'progressive' && carries) {
      lines.push(
        line({
          seat: s.seat,
          bet,
          amount,
          outcome: 'void',
          basis: 'the round is invalid: the Progressive Jackpot bet moves to the next round',
          citations: [...why, C.carryOver],
          carriedOver: true,
        }),
      );
    } else {
      lines.push(
        line({
          seat: s.seat,
          bet,
          amount,
          outcome: 'void',
          basis: 'the round is invalid: the bet may be withdrawn',
          citations: [...why, C.voidInvalid],
        }),
      );
    }
  }
}
