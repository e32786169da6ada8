import type { Card } from '../cards.ts';
import type { Arrangement } from './arrangement.ts';
import type { Outcome } from './score.ts';

/**
 * The facts of one 13 Cards round, as the checks judge them: what the table did, in the order and at the times
 * it did it. Every fact names the event it comes from (evidence). Times are UTC milliseconds. Places are 0 (the
 * banker) and 1, 2, 3 counter-clockwise from the banker (art. 3.º).
 *
 * The translation from ta.thirteen.* events into these facts, and back, is events.ts; the table fold is table.ts.
 */
export interface Fact {
  readonly eventId: string;
  readonly time: number;
}

export interface CutFact extends Fact {
  /** art. 2.º a): cards taken by the cut with the blank card */
  readonly cards: number;
}

export interface DiceFact extends Fact {
  /** the sum of the four dice, 4..24 */
  readonly sum: number;
  readonly shakerPlayerId: string | null;
}

export interface DealtCard extends Fact {
  readonly card: Card;
  /** the place the card was dealt to */
  readonly place: number;
  readonly faceUp: boolean;
  /**
   * art. 4.º: the table noticed the card was dealt to the wrong place and gave it to this place (null: a misdeal
   * noticed and not corrected); absent when no misdeal was recorded for the card
   */
  readonly misdealCorrectedTo?: number | null;
}

/** art. 4.º: a deal cancelled because a misdeal could not be put right, and what followed. */
export interface CancelledDeal extends Fact {
  readonly reshuffledByBanker: boolean;
  readonly reshuffledByMachine: boolean;
  /** the cut that followed (null: none) */
  readonly cut: CutFact | null;
}

export interface BetFact extends Fact {
  readonly betId: string;
  readonly place: number;
  readonly playerId: string;
  /** avos */
  readonly amount: number;
  /** art. 11.º: 1, 2 or 3 points */
  readonly units: number;
  /** the bettor is seated at the table */
  readonly seated: boolean;
}

export interface BetChange extends Fact {
  readonly betId: string;
  readonly kind: 'withdrawn' | 'moved';
  /** for 'moved': the place it went to */
  readonly toPlace: number | null;
}

export interface ArrangementShown extends Fact {
  readonly arrangement: Arrangement;
}

export interface PlaceFacts {
  readonly place: number;
  /** who held the cards (art. 5.º) */
  readonly holderPlayerId: string | null;
  /** when the holder first took or looked at the cards (null: not seen) */
  readonly cardsTakenAt: Fact | null;
  /** the arrangement the place finished with, and when (null: never finished) */
  readonly arranged: ArrangementShown | null;
}

export interface ConductObservation extends Fact {
  readonly kind: 'place-changed' | 'cards-off-table' | 'other-place-cards';
  readonly playerId: string;
  readonly place: number;
}

export interface BetSettled extends Fact {
  readonly betId: string;
  readonly outcome: Outcome;
  /** avos the bettor gained (+) or lost (−) */
  readonly net: number;
}

export interface ThirteenRound {
  readonly roundId: string;
  readonly tableId: string;
  readonly cut: CutFact | null;
  readonly dice: DiceFact;
  readonly deal: readonly DealtCard[];
  readonly cancelledDeals: readonly CancelledDeal[];
  readonly bets: readonly BetFact[];
  readonly betChanges: readonly BetChange[];
  /** the banker's arrangement as shown, then each re-arrangement (art. 2.º d)) */
  readonly bankerShown: readonly ArrangementShown[];
  readonly places: readonly PlaceFacts[];
  /** art. 2.º d): the signal five minutes after the banker showed */
  readonly signal: Fact | null;
  readonly observations: readonly ConductObservation[];
  readonly settlements: readonly BetSettled[];
}

/** The cards each place ended the deal with, misdeals corrected (art. 4.º). */
export function cardsByPlace(deal: readonly DealtCard[]): Card[][] {
  const out: Card[][] = [[], [], [], []];
  for (const d of deal) {
    const to = d.misdealCorrectedTo ?? d.place;
    out[to]?.push(d.card);
  }
  return out;
}
