import { duplicateCards, formatCard, isCard, type Card } from '../cards.ts';
import type { Avos, RoundingPolicy } from '../money.ts';
import type { JackpotHand } from './rule-set.ts';

/** Bets of one hand, in avos; an absent or zero amount means no bet of that type. */
export interface F3cpBets {
  readonly ante?: Avos;
  /** the Play bet (Aposta Dobrada); by art. 12.º n.º 2 it must equal the Ante */
  readonly play?: Avos;
  readonly pairPlus?: Avos;
  readonly sixCardBonus?: Avos;
  readonly progressive?: Avos;
}

export interface F3cpSeatFacts {
  /** 1 = the seat immediately left of the banker, counting to the right (art. 15.º n.º 3) */
  readonly seat: number;
  readonly cards: readonly Card[];
  readonly bets: F3cpBets;
  /** required when the hand has an Ante */
  readonly decision?: 'play' | 'fold';
}

export interface JackpotConfig {
  /** fixed award per qualifying hand (art. 16.º n.º 3) */
  readonly fixed: Readonly<Record<JackpotHand, Avos>>;
  /** the amount the pool restarts at once emptied (art. 15.º n.º 6) */
  readonly resetAmount: Avos;
  readonly rounding: RoundingPolicy;
}

/** Why a round was voided under art. 17.º: what decides whether Progressive bets carry over (n.º 3). */
export type F3cpVoidReason =
  | 'dealing-rules-broken' // n.º 1 1): art. 11.º n.º 1-3 not followed
  | 'banker-card-exposed' // n.º 1 2)
  | 'player-cards-exposed' // n.º 1 3): more than one player card
  | 'shuffler-malfunction'; // n.º 2

/** The facts of one round that settlement needs. Pure data: nothing here is looked up elsewhere. */
export interface F3cpRoundFacts {
  /** seats with at least one bet, in any order */
  readonly seats: readonly F3cpSeatFacts[];
  readonly banker: readonly Card[];
  /** the two community cards; needed when any hand bets the Progressive Jackpot */
  readonly community?: readonly Card[];
  /** the table's jackpot configuration and the pool before this round's payments */
  readonly jackpot?: { readonly config: JackpotConfig; readonly poolBefore: Avos };
  /** set when the round is invalid under art. 17.º: every bet is then returned or carried over */
  readonly voided?: F3cpVoidReason;
}

export class InvalidRoundFacts extends Error {
  override readonly name = 'InvalidRoundFacts';
  constructor(readonly problems: readonly string[]) {
    super(`the round cannot be settled: ${problems.join('; ')}`);
  }
}

const BET_TYPES = ['ante', 'play', 'pairPlus', 'sixCardBonus', 'progressive'] as const;

// Cards seen so far by roundFactsAreValid (bits 0..29 and 30..51); reset at each call.
let seenLo = 0;
let seenHi = 0;

function takeCards(list: readonly Card[] | undefined, count: number): boolean {
  if (!list || list.length !== count) return false;
  for (let i = 0; i < count; i++) {
    const c = list[i]!;
    if (!isCard(c)) return false;
    if (c < 30) {
      if (seenLo & (1 << c)) return false;
      seenLo |= 1 << c;
    } else {
      if (seenHi & (1 << (c - 30))) return false;
      seenHi |= 1 << (c - 30);
    }
  }
  return true;
}

const validAmount = (a: number | undefined): boolean =>
  a === undefined || (Number.isSafeInteger(a) && a >= 0);

/** True when the facts can be settled; allocation-free, for the hot path. checkRoundFacts says why not. */
export function roundFactsAreValid(facts: F3cpRoundFacts): boolean {
  seenLo = 0;
  seenHi = 0;
  if (!takeCards(facts.banker, 3)) return false;
  let seatsSeen = 0;
  let anyProgressive = false;
  for (const s of facts.seats) {
    if (!Number.isInteger(s.seat) || s.seat < 1 || s.seat > 7 || seatsSeen & (1 << s.seat)) return false;
    seatsSeen |= 1 << s.seat;
    if (!takeCards(s.cards, 3)) return false;
    const b = s.bets;
    if (
      !validAmount(b.ante) ||
      !validAmount(b.play) ||
      !validAmount(b.pairPlus) ||
      !validAmount(b.sixCardBonus) ||
      !validAmount(b.progressive)
    )
      return false;
    const ante = b.ante ?? 0;
    const play = b.play ?? 0;
    if (ante > 0) {
      if (
        s.decision === undefined ||
        (s.decision === 'play' && !(play > 0)) ||
        (s.decision === 'fold' && play > 0)
      )
        return false;
    } else if (play > 0 || s.decision === 'play') return false;
    if ((b.progressive ?? 0) > 0) anyProgressive = true;
  }
  if (anyProgressive && !facts.voided) {
    if (!takeCards(facts.community, 2) || !facts.jackpot) return false;
    if (!Number.isSafeInteger(facts.jackpot.poolBefore) || facts.jackpot.poolBefore < 0) return false;
  } else if (facts.community && !takeCards(facts.community, facts.community.length)) return false;
  return true;
}

/** Every reason the facts cannot be settled, each naming what to fix; empty when they can. */
export function checkRoundFacts(facts: F3cpRoundFacts): string[] {
  const problems: string[] = [];
  const cards = (what: string, list: readonly Card[] | undefined, count: number): void => {
    if (!list || list.length !== count)
      problems.push(`${what} must have ${count} cards, has ${list?.length ?? 0}`);
    else
      list.forEach(
        (c, i) => isCard(c) || problems.push(`${what} card ${i + 1} (${c}) is not a card index 0..51`),
      );
  };
  cards('the banker', facts.banker, 3);
  const seatNumbers = new Set<number>();
  let anyProgressive = false;
  for (const s of facts.seats) {
    const who = `seat ${s.seat}`;
    if (!Number.isInteger(s.seat) || s.seat < 1 || s.seat > 7)
      problems.push(`${who}: seats are numbered 1 to 7`);
    if (seatNumbers.has(s.seat)) problems.push(`${who} appears twice`);
    seatNumbers.add(s.seat);
    cards(who, s.cards, 3);
    for (const t of BET_TYPES) {
      const a = s.bets[t];
      if (a !== undefined && (!Number.isSafeInteger(a) || a < 0))
        problems.push(`${who}: ${t} bet ${a} is not a whole number of avos`);
    }
    if ((s.bets.ante ?? 0) > 0) {
      if (s.decision === undefined) problems.push(`${who} has an Ante but no play/fold decision`);
      if (s.decision === 'play' && !((s.bets.play ?? 0) > 0))
        problems.push(`${who} played but has no Play bet amount`);
    } else if ((s.bets.play ?? 0) > 0 || s.decision === 'play') {
      problems.push(`${who} has a Play bet without an Ante`);
    }
    if (s.decision === 'fold' && (s.bets.play ?? 0) > 0) problems.push(`${who} folded but has a Play bet`);
    if ((s.bets.progressive ?? 0) > 0) anyProgressive = true;
  }
  if (anyProgressive && !facts.voided) {
    cards('the community area', facts.community, 2);
    if (!facts.jackpot)
      problems.push('a Progressive Jackpot bet needs the jackpot configuration and the pool');
    else if (!Number.isSafeInteger(facts.jackpot.poolBefore) || facts.jackpot.poolBefore < 0)
      problems.push('the jackpot pool must be a whole number of avos');
  }
  const all = [...facts.banker, ...(facts.community ?? []), ...facts.seats.flatMap((s) => s.cards)].filter(
    isCard,
  );
  const dups = duplicateCards(all);
  if (dups.length > 0) problems.push(`cards dealt twice from one deck: ${dups.map(formatCard).join(', ')}`);
  return problems;
}

/** A table's jackpot settings as events state them (TableOpened), in the shape the engine takes. */
export interface TableJackpotSettings {
  readonly jackpot: {
    readonly fixedAmounts: {
      royalFlush: Avos;
      straightFlush: Avos;
      fourOfAKind: Avos;
      fullHouse: Avos;
      flush: Avos;
    };
    readonly resetAmount: Avos;
  } | null;
  readonly rounding: { readonly unitAvos: Avos; readonly mode: 'DOWN' | 'HALF_UP' | 'UP' | 'UNKNOWN' };
}

function roundingModeOf(mode: TableJackpotSettings['rounding']['mode']): 'down' | 'up' | 'half-up' {
  if (mode === 'UNKNOWN')
    // the enum's default, read for a mode added after this reader's schema: ingest refuses such a TableOpened
    throw new Error('rounding mode UNKNOWN (a mode this reader does not know) cannot be applied');
  return mode === 'DOWN' ? 'down' : mode === 'UP' ? 'up' : 'half-up';
}

export function jackpotConfigOf(t: TableJackpotSettings): JackpotConfig | null {
  if (!t.jackpot) return null;
  const f = t.jackpot.fixedAmounts;
  return {
    fixed: {
      'royal-flush': f.royalFlush,
      'straight-flush': f.straightFlush,
      'four-of-a-kind': f.fourOfAKind,
      'full-house': f.fullHouse,
      flush: f.flush,
    },
    resetAmount: t.jackpot.resetAmount,
    rounding: {
      unit: t.rounding.unitAvos,
      mode: roundingModeOf(t.rounding.mode),
    },
  };
}
