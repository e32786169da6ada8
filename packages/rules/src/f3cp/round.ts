import { CardError, parseCard, type Card } from '../cards.ts';
import type { FindingInput } from '../findings.ts';
import type { CardDealt } from '@table-audit/schemas/events';
import {
  ascending,
  BANKER,
  COMMUNITY,
  DISCARD,
  prescribedDealOrder,
  targetCode,
  type DealingMode,
} from './events.ts';
import type { JackpotConfig, F3cpRoundFacts } from './facts.ts';
import type { RoundView, SeatBets } from './fold.ts';
import type { F3cpRuleSet } from './rule-set.ts';
import type { F3cpSettlement } from './settle/index.ts';

/** The cards of a round, sorted into good, impossible, repeated and void (dealt to a hand without bets). */
export interface CardAnalysis {
  /** card index per dealt card, -1 where the text is no card */
  readonly cardOf: Int32Array;
  /** 1: dealt to a hand without bets (art. 17.º n.º 4 2)); 2: a re-use of such a card */
  readonly isVoidCard: Uint8Array;
  readonly badCards: readonly CardDealt[];
  readonly duplicates: readonly CardDealt[];
  readonly reusedVoidCards: readonly CardDealt[];
  readonly voidSeatCards: readonly CardDealt[];
}

/** The deal measured against art. 11.º: counts per hand, the community cards, the order. */
export interface DealAnalysis {
  readonly mode: DealingMode;
  readonly expected: readonly number[];
  /** targets of the cards that belong to hands with bets, the banker, the community and the discard */
  readonly actual: readonly number[];
  /** a voided round or a malfunction may stop the deal early: then only too many cards is wrong */
  readonly incompleteAllowed: boolean;
  readonly countProblems: readonly [string, number][];
  readonly community: number;
  readonly discards: number;
  readonly discardAllowed: number;
  readonly communityProblem: boolean;
  readonly orderBroken: boolean;
  /** art. 11.º n.º 1–3 broken: the condition of art. 17.º n.º 1 1) */
  readonly rulesBroken: boolean;
}

/** One round as the law judges it: its events sorted, the rule set in force, and what the deal shows. */
export interface JudgedRound {
  readonly view: RoundView;
  readonly ruleSet: F3cpRuleSet;
  /** seats with a bet when the cards were dealt */
  readonly betSeats: readonly SeatBets[];
  readonly anyProgressive: boolean;
  readonly hasBets: (seat: number | null) => boolean;
  readonly cards: CardAnalysis;
  readonly deal: DealAnalysis;
  readonly voided: boolean;
  readonly malfunctionDuringDeal: RoundView['malfunctions'][number] | undefined;
}

/** A judged round whose cards make a complete round, with the engine's settlement of it. */
export interface SettledRound extends JudgedRound {
  readonly facts: F3cpRoundFacts;
  readonly settlement: F3cpSettlement;
  readonly jackpotConfig: JackpotConfig | null;
}

/** A check: a pure function from a judged round to the violations it finds. */
export type RoundCheck<R extends JudgedRound = JudgedRound> = (round: R) => FindingInput[];

const stakedAtDeal = (b: SeatBets | undefined): number =>
  b ? b.ante + b.pairPlus + b.sixCardBonus + b.progressive : 0;

/** Whether the round's events have a ShuffleCompleted after the malfunction (the pause of J15's alternative). */
export function reshuffledAfter(view: RoundView, m: RoundView['malfunctions'][number]): boolean {
  const events = view.events;
  let after = false;
  for (let i = 0; i < events.length; i++) {
    const e = events[i]!;
    if (e.data === m.event) after = true;
    else if (after && e.type === 'ShuffleCompleted') return true;
  }
  return false;
}

export function judgeRound(view: RoundView, ruleSet: F3cpRuleSet): JudgedRound {
  const betSeats: SeatBets[] = [];
  let anyProgressive = false;
  for (const b of view.bets.values()) {
    if (stakedAtDeal(b) <= 0) continue;
    betSeats.push(b);
    if (b.progressive > 0) anyProgressive = true;
  }
  const hasBets = (seat: number | null) => seat !== null && stakedAtDeal(view.bets.get(seat)) > 0;
  const voided = view.voided !== null;
  const malfunctionDuringDeal = view.malfunctions.find((m) => m.event.duringDeal);
  const cards = analyseCards(view, hasBets);
  const deal = analyseDeal(
    view,
    cards,
    betSeats.map((b) => b.seat),
    anyProgressive,
    // a malfunction ends the deal early, unless J15's alternative resumes it after a reshuffle
    voided ||
      (malfunctionDuringDeal !== undefined &&
        !(
          ruleSet.alternatives.length > 0 &&
          ruleSet.alternatives.includes('J15') &&
          reshuffledAfter(view, malfunctionDuringDeal)
        )),
  );
  return { view, ruleSet, betSeats, anyProgressive, hasBets, cards, deal, voided, malfunctionDuringDeal };
}

const FIRST_AT = new Int32Array(52);

function analyseCards(v: RoundView, hasBets: (seat: number | null) => boolean): CardAnalysis {
  const n = v.dealt.length;
  const cardOf = new Int32Array(n);
  const isVoidCard = new Uint8Array(n);
  const badCards: CardDealt[] = [];
  const duplicates: CardDealt[] = [];
  const reusedVoidCards: CardDealt[] = [];
  // scratch shared by every call (analyseCards is synchronous and keeps nothing of it): the first deal of each card
  const firstAt = FIRST_AT.fill(-1);
  for (let i = 0; i < n; i++) {
    const d = v.dealt[i]!;
    const c = cardValue(d.card);
    cardOf[i] = c;
    const toEmptyHand = d.target === 'SEAT' && !hasBets(d.seat);
    if (toEmptyHand) isVoidCard[i] = 1;
    if (c < 0) {
      badCards.push(d);
      continue;
    }
    const first = firstAt[c]!;
    if (first < 0) firstAt[c] = i;
    else if (isVoidCard[first] && !toEmptyHand) {
      reusedVoidCards.push(d);
      isVoidCard[i] = 2;
    } else duplicates.push(d);
  }
  const voidSeatCards = v.dealt.filter((_, i) => isVoidCard[i] === 1);
  return { cardOf, isVoidCard, badCards, duplicates, reusedVoidCards, voidSeatCards };
}

function analyseDeal(
  v: RoundView,
  cards: CardAnalysis,
  seats: number[],
  anyProgressive: boolean,
  incompleteAllowed: boolean,
): DealAnalysis {
  const mode = v.context.dealingMode;
  const expected = prescribedDealOrder(mode, seats);
  const seatsAsc = ascending(seats) ? seats : [...seats].sort((a, b) => a - b);
  const actual: number[] = [];
  const counts = new Int32Array(11);
  for (let i = 0; i < v.dealt.length; i++) {
    if (cards.isVoidCard[i]) continue;
    const t = targetCode(v.dealt[i]!);
    actual.push(t);
    counts[t]!++;
  }
  const countProblems: [string, number][] = [];
  for (const s of seatsAsc)
    if (incompleteAllowed ? counts[s]! > 3 : counts[s] !== 3) countProblems.push([`seat ${s}`, counts[s]!]);
  if (incompleteAllowed ? counts[BANKER]! > 3 : counts[BANKER] !== 3)
    countProblems.push(['the banker', counts[BANKER]!]);
  const community = counts[COMMUNITY]!;
  const discards = counts[DISCARD]!;
  const discardAllowed = mode === 'SHUFFLER' && anyProgressive ? 1 : 0;
  // with no Progressive bet, community cards on the table are allowed (J17): only their reveal is a finding
  const communityProblem =
    anyProgressive && ((incompleteAllowed ? community > 2 : community !== 2) || discards > discardAllowed);
  // the hands and the banker first, in the prescribed order; then, if any, one discard and the community cards
  let orderBroken = false;
  if (!countProblems.length) {
    const hands = actual.length - community - discards;
    for (let i = 0; i < hands && !orderBroken; i++) if (actual[i] !== expected[i]) orderBroken = true;
    for (let i = hands; i < actual.length && !orderBroken; i++) {
      const t = actual[i]!;
      if ((t !== COMMUNITY && t !== DISCARD) || (t === DISCARD && i !== hands)) orderBroken = true;
    }
  }
  return {
    mode,
    expected,
    actual,
    incompleteAllowed,
    countProblems,
    community,
    discards,
    discardAllowed,
    communityProblem,
    orderBroken,
    rulesBroken: countProblems.length > 0 || communityProblem || orderBroken,
  };
}

/** The cards of a round that the settlement uses (void cards left out), for the hands matching `pred`. */
export function cardsWhere(r: JudgedRound, pred: (d: CardDealt) => boolean): Card[] {
  const dealt = r.view.dealt;
  const { isVoidCard, cardOf } = r.cards;
  // a hand is two or three cards: the list is made at its length (a push onto [] reserves 17 slots), the same list
  let n = 0;
  let c0 = 0;
  let c1 = 0;
  let c2 = 0;
  let more: Card[] | null = null;
  for (let i = 0; i < dealt.length; i++)
    if (!isVoidCard[i] && pred(dealt[i]!)) {
      const c = cardOf[i]!;
      if (n === 0) c0 = c;
      else if (n === 1) c1 = c;
      else if (n === 2) c2 = c;
      else (more ??= [c0, c1, c2]).push(c);
      n++;
    }
  if (more) return more;
  return n === 0 ? [] : n === 1 ? [c0] : n === 2 ? [c0, c1] : [c0, c1, c2];
}

// card text → card index; -1 for text that is no card (a replay sees only a few dozen distinct strings)
const CARD_VALUES = new Map<string, number>();
function cardValue(text: string): number {
  let c = CARD_VALUES.get(text);
  if (c === undefined) {
    try {
      c = parseCard(text);
    } catch (e) {
      if (!(e instanceof CardError)) throw e;
      c = -1;
    }
    if (CARD_VALUES.size < 10_000) CARD_VALUES.set(text, c);
  }
  return c;
}
