/**
 * Problems with one 13 Cards event that no table could have produced (a card that is no card, a fifth place, five
 * dice, a bet of four points, a tier of four cards), each naming the field. What is merely wrong (a card to the
 * wrong place, a late arrangement, a payout off art. 11.º) is left for the replay's checks.
 */
import type { ThirteenEvent } from '@table-audit/schemas/events';
import { parseCard } from '../cards.ts';

const cardProblem = (p: string[], field: string, card: string): void => {
  try {
    parseCard(card);
  } catch {
    p.push(
      `${field} ${JSON.stringify(card)} is not a card (rank 2-9, T, J, Q, K or A, then suit c, d, h or s)`,
    );
  }
};
const placeProblem = (p: string[], field: string, v: number, lowest: number): void => {
  if (!Number.isInteger(v) || v < lowest || v > 3) p.push(`${field} ${v} is not a place (${lowest} to 3)`);
};

export function thirteenEventProblems(e: ThirteenEvent): string[] {
  const p: string[] = [];
  if (
    e.type !== 'TableOpened' &&
    e.type.match(/^(Thirteen|Deck|Dice|Deal|Banker|Place|Arrange)/) &&
    e.data.header.roundId === null
  )
    p.push(`header.roundId is required for ${e.type}: the round it belongs to`);
  switch (e.type) {
    case 'TableOpened': {
      if (e.data.game !== 'THIRTEEN_CARDS') break;
      const s = e.data.thirteenCards;
      if (!s) {
        p.push('thirteenCards is required for a THIRTEEN_CARDS table (its payout settings, art. 11.º, T2)');
        break;
      }
      if (s.unitsMeaning === 'UNKNOWN')
        p.push('thirteenCards.unitsMeaning is UNKNOWN: a symbol this reader does not know');
      if (s.commissionBase === 'UNKNOWN')
        p.push('thirteenCards.commissionBase is UNKNOWN: a symbol this reader does not know');
      if (!Number.isInteger(s.commissionPercent) || s.commissionPercent < 0 || s.commissionPercent > 100)
        p.push(`thirteenCards.commissionPercent ${s.commissionPercent} is not a whole percent 0 to 100`);
      break;
    }
    case 'DeckCut':
      if (!Number.isInteger(e.data.cardCount) || e.data.cardCount < 0 || e.data.cardCount > 52)
        p.push(`cardCount ${e.data.cardCount} is not a number of cards of one deck (0 to 52)`);
      break;
    case 'DiceShaken':
      if (e.data.faces.length !== 4)
        p.push(`faces has ${e.data.faces.length} values: the shake is of four dice`);
      e.data.faces.forEach((f, i) => {
        if (!Number.isInteger(f) || f < 1 || f > 6)
          p.push(`faces[${i}] ${f} is not a face of a die (1 to 6)`);
      });
      break;
    case 'ThirteenCardDealt':
      cardProblem(p, 'card', e.data.card);
      placeProblem(p, 'place', e.data.place, 0);
      if (e.data.correctedTo !== null) placeProblem(p, 'correctedTo', e.data.correctedTo, 0);
      if (!e.data.misdeal && e.data.correctedTo !== null)
        p.push('correctedTo is given for a card not recorded as misdealt (misdeal is false)');
      break;
    case 'BankerArranged':
    case 'PlaceArranged': {
      if (e.type === 'PlaceArranged') placeProblem(p, 'place', e.data.place, 1);
      const want = { front: 3, middle: 5, back: 5 } as const;
      for (const tier of ['front', 'middle', 'back'] as const) {
        const cards = e.data[tier];
        if (cards.length !== want[tier])
          p.push(`${tier} has ${cards.length} cards: the tier holds ${want[tier]}`);
        cards.forEach((c, i) => cardProblem(p, `${tier}[${i}]`, c));
      }
      break;
    }
    case 'PlaceCardsTaken':
      placeProblem(p, 'place', e.data.place, 1);
      break;
    case 'ThirteenBetPlaced':
      if (!e.data.betId) p.push('betId is empty');
      if (!e.data.playerId) p.push('playerId is empty');
      placeProblem(p, 'place', e.data.place, 1);
      if (!Number.isSafeInteger(e.data.amount) || e.data.amount <= 0)
        p.push(`amount ${e.data.amount} must be a positive whole number of avos`);
      if (![1, 2, 3].includes(e.data.units))
        p.push(`units ${e.data.units}: art. 11.º allows 1, 2 or 3 points`);
      break;
    case 'ThirteenBetChanged':
      if (!e.data.betId) p.push('betId is empty');
      if (e.data.change === 'UNKNOWN') p.push('change is UNKNOWN: a symbol this reader does not know');
      if (e.data.change === 'MOVED') {
        if (e.data.toPlace === null) p.push('toPlace is required for a MOVED bet');
        else placeProblem(p, 'toPlace', e.data.toPlace, 1);
      } else if (e.data.toPlace !== null)
        p.push(`toPlace is given for a ${e.data.change} bet: only a MOVED bet has one`);
      break;
    case 'ThirteenConductObserved':
      if (e.data.conduct === 'UNKNOWN') p.push('conduct is UNKNOWN: a symbol this reader does not know');
      if (!e.data.playerId) p.push('playerId is empty');
      placeProblem(p, 'place', e.data.place, 1);
      break;
    case 'ThirteenBetSettled':
      if (!e.data.betId) p.push('betId is empty');
      if (e.data.outcome === 'UNKNOWN') p.push('outcome is UNKNOWN: a symbol this reader does not know');
      if (!Number.isSafeInteger(e.data.net)) p.push(`net ${e.data.net} must be a whole number of avos`);
      break;
    default:
      break;
  }
  return p;
}
